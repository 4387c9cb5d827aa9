//! One module per subcommand; each has `Args` (clap) and `run(Args) -> Result<ExitCode>`.

pub mod bench;
pub mod channel_emulator;
pub mod decap;
pub mod encap;
pub mod experimental_pq;
pub mod input;
pub mod inspect;
pub mod its_aid_arg;
pub mod legacy;
pub mod mbd_authority;
pub mod model;
pub mod out_dir;
pub mod overhead;
pub mod pcap;
pub mod pki;
pub mod pki_service;
pub mod reproduce;
pub mod sim;
pub mod sim_misbehaviour;
pub mod station;
pub mod sweep;
pub mod testbed;
