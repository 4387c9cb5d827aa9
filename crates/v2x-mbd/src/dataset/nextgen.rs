//! VeReMi NextGen: one JSON array of messages per receiver (`Documentation/README.md` of
//! the NextGen repository: `rcvTime`/`sendTime` in ns, `sender_id`, `sender_alias`,
//! `messageID`, `attacker`, `receiver` and `sender` objects). Positions read as `"x,y,z"`
//! strings or arrays and are written as strings, the form NextGen's generator and checks
//! parse.

use super::DatasetError;
use crate::message::Message;
use std::path::Path;

/// Reads one receiver's file.
pub fn read(path: &Path) -> Result<Vec<Message>, DatasetError> {
    let bytes = std::fs::read(path).map_err(|source| DatasetError::Io {
        path: path.display().to_string(),
        source,
    })?;
    parse(&bytes, &path.display().to_string())
}

pub fn parse(bytes: &[u8], origin: &str) -> Result<Vec<Message>, DatasetError> {
    serde_json::from_slice(bytes).map_err(|e| DatasetError::Format {
        path: origin.to_string(),
        line: e.line(),
        message: e.to_string(),
    })
}

/// Reads every `*.json` file of a folder (except ground-truth files): receiver name (file
/// stem) and messages, in name order.
pub fn read_dir(dir: &Path) -> Result<Vec<(String, Vec<Message>)>, DatasetError> {
    let io = |source| DatasetError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().to_lowercase().contains("ground"))
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            read(&p).map(|m| (name, m))
        })
        .collect()
}

/// Writes one receiver's messages.
pub fn write(path: &Path, messages: &[Message]) -> Result<(), DatasetError> {
    let bytes = serde_json::to_vec(messages).map_err(|e| DatasetError::Format {
        path: path.display().to_string(),
        line: 0,
        message: e.to_string(),
    })?;
    std::fs::write(path, bytes).map_err(|source| DatasetError::Io {
        path: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message as NextGen documents it (arrays) and as its generator writes it (strings).
    const DOC: &str = r#"[{"rcvTime": 1500000000, "sendTime": 1499000000, "sender_id": "veh_3",
        "sender_alias": 77, "messageID": 9, "attacker": 1,
        "receiver": {"pos": [1.0, 2.0, 0.0], "pos_noise": [3.0, 3.0, 0.0], "spd": 10.0,
          "spd_noise": 0.1, "acl": 0.5, "acl_noise": 0.1, "hed": 90.0, "hed_noise": 2.0,
          "driversProfile": "NORMAL"},
        "sender": {"pos": "5.5,6.5,0.0", "pos_noise": "2.0,2.0,0.0", "spd": 12.0,
          "spd_noise": 0.2, "acl": -1.0, "acl_noise": 0.1, "hed": 180.0, "hed_noise": 3.0,
          "driversProfile": "AGGRESSIVE", "distance_to_road_edge": 3.5}}]"#;

    #[test]
    fn reads_both_position_forms_and_round_trips() {
        let m = parse(DOC.as_bytes(), "doc").unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].receiver.pos, [1.0, 2.0, 0.0]);
        assert_eq!(m[0].sender.pos, [5.5, 6.5, 0.0]);
        assert_eq!(m[0].sender.distance_to_road_edge, Some(3.5));
        assert!(m[0].is_attack());
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains(r#""pos":"5.5,6.5,0""#), "{text}");
        assert_eq!(parse(text.as_bytes(), "again").unwrap(), m);
        assert!(parse(br#"[{"rcvTime": "x"}]"#, "bad").is_err());
        assert!(parse(DOC.replace("5.5,6.5,0.0", "5.5,6.5").as_bytes(), "short").is_err());
    }
}
