//! Report scaffolding shared by the commands that write results folders (`v2x bench`,
//! `v2x sim`, and later the testbed and paper reproductions):
//!
//! - [`html`]: a self-contained HTML page (no external resources) with escaped text,
//!   tables and inline SVG plots;
//! - [`stats`]: the Student-t confidence interval every report quotes;
//! - [`progress`]: the [`Progress`] a library reports to (the program draws it), and the
//!   [`RunMeter`] a simulation run moves through simulated time;
//! - [`provenance`]: version, commit, date, host, load and command line of a report;
//! - [`table`]: result tables as CSV with a typed Parquet file beside it (for pandas);
//! - [`plot`]: column-width line charts (variant colours, CI bands, steps, log axes).

pub mod html;
pub mod plot;
pub mod progress;
pub mod provenance;
pub mod stats;
pub mod table;

pub use progress::{Part, Progress, Reading, RunMeter, Silent};
