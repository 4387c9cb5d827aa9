//! The terminal progress bar of long commands (`bench`, `sim`): the libraries report
//! progress through `v2x_report::Progress`, this draws it on standard error when that is a
//! terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub struct TermProgress {
    bar: ProgressBar,
}

impl TermProgress {
    /// A bar when `wanted` and standard error is a terminal, else hidden.
    pub fn new(wanted: bool) -> TermProgress {
        let target = if wanted && std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        TermProgress { bar }
    }
}

impl v2x_report::Progress for TermProgress {
    fn start(&self, total: u64) {
        self.bar.set_length(total);
    }

    fn step(&self, what: &str) {
        self.bar.set_message(what.to_string());
        self.bar.inc(1);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
