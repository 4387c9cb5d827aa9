//! The verification deadline, checked against the protocol: a TESLA packet cannot be
//! verified before its key arrives (the key disclosure delay; with the key attached, the
//! sender's next packet, one CAM period later), so a deadline no longer than that loses
//! nearly every packet. The default deadline is refused there; a deadline the scenario
//! gives is kept, with a warning.

use super::Setting;
use crate::error::CostsError;
use crate::scenario::{VariantConfig, DEFAULT_DEADLINE_MS};
use v2x_profile::ProtocolId;

/// The deadline in ms, its setting for the report, and a warning where it cannot be met.
pub(super) struct Deadline {
    pub ms: f64,
    pub setting: Setting,
    pub key_delay: Option<Setting>,
    pub warning: Option<String>,
}

/// The earliest a packet's key can arrive after the packet, in ms, and how it comes.
fn key_delay_ms(kind: ProtocolId, disclosure_s: f64, cam_rate_hz: f64) -> Option<(f64, String)> {
    match kind {
        ProtocolId::Tesla => Some((
            disclosure_s * 1000.0,
            "key disclosure delay (a separate key frame)".into(),
        )),
        ProtocolId::TeslaAttached => Some((
            1000.0 / cam_rate_hz,
            format!("key on the sender's next packet: one CAM period at {cam_rate_hz} Hz"),
        )),
        _ => None,
    }
}

pub(super) fn resolve(
    v: &VariantConfig,
    kind: ProtocolId,
    disclosure_s: f64,
    cam_rate_hz: f64,
) -> Result<Deadline, CostsError> {
    let ms = v.deadline_ms();
    let given = v.deadline_ms.is_some();
    let setting = Setting {
        name: "deadline_ms",
        value: format!("{ms}"),
        from: if given {
            "scenario".into()
        } else {
            format!("default ({DEFAULT_DEADLINE_MS} ms: one CAM period, paper 000)")
        },
    };
    let Some((delay, how)) = key_delay_ms(kind, disclosure_s, cam_rate_hz) else {
        return Ok(Deadline {
            ms,
            setting,
            key_delay: None,
            warning: None,
        });
    };
    let key_delay = Some(Setting {
        name: "key_delay_ms",
        value: format!("{delay}"),
        from: how.clone(),
    });
    if ms > delay {
        return Ok(Deadline {
            ms,
            setting,
            key_delay,
            warning: None,
        });
    }
    let why = format!(
        "{kind}: the deadline ({ms} ms) is not longer than the {delay} ms a packet waits for its key ({how}), \
         so nearly every packet would be lost to the deadline"
    );
    if !given {
        return Err(CostsError::Deadline(format!(
            "{why}; `deadline_ms` was left at its default: set it above {delay} ms (the demo \
             scenarios/demo-highway-tesla.toml uses 1000)"
        )));
    }
    Ok(Deadline {
        ms,
        setting,
        key_delay,
        warning: Some(format!("{why} (deadline_ms as the scenario sets it)")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(kind: ProtocolId, deadline_ms: Option<f64>) -> VariantConfig {
        VariantConfig {
            name: "t".into(),
            protocol: kind,
            deadline_ms,
            ..VariantConfig::default()
        }
    }

    /// Issue 28: TESLA attached at the default 100 ms deadline, equal to its key delay at
    /// 10 Hz, reported a PDR of 0.089 and said nothing.
    #[test]
    fn a_default_deadline_a_tesla_key_cannot_meet_is_refused() {
        let e = resolve(
            &variant(ProtocolId::TeslaAttached, None),
            ProtocolId::TeslaAttached,
            0.1,
            10.0,
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("deadline_ms") && e.contains("100 ms") && e.contains("default"),
            "{e}"
        );
        assert!(resolve(&variant(ProtocolId::Tesla, None), ProtocolId::Tesla, 0.1, 10.0).is_err());
        // Given by the scenario: kept, with a warning.
        let d = resolve(&variant(ProtocolId::Tesla, Some(80.0)), ProtocolId::Tesla, 0.1, 10.0).unwrap();
        assert!(d.warning.is_some_and(|w| w.contains("nearly every packet")));
        // Longer than the key delay: fine, and the report shows both.
        let d = resolve(
            &variant(ProtocolId::TeslaAttached, Some(1000.0)),
            ProtocolId::TeslaAttached,
            0.1,
            10.0,
        )
        .unwrap();
        assert!(d.warning.is_none());
        assert_eq!(d.key_delay.unwrap().value, "100");
        // Other protocols: the default is the obvious one, and says it is a default.
        let d = resolve(&variant(ProtocolId::Ieee16092, None), ProtocolId::Ieee16092, 0.1, 10.0).unwrap();
        assert_eq!(d.ms, 100.0);
        assert!(d.setting.from.starts_with("default"));
    }
}
