//! Conformance harness: one check per normative requirement ("shall") of TS 102 941 v2.x's
//! enrolment (§6.2.3.2), authorization (§6.2.3.3) and authorization validation (§6.2.3.4)
//! procedures and of its HTTP binding, for the three roles (ITS-S, EA, AA), each naming its
//! clause. Where the text of an ETSI TS 103 525-2 test purpose for the same requirement could be
//! read (the ETSI forge's TTCN-3 suite), its name is given; the others show "-". The checks build real messages with the ITS-S side, run them through the EA and AA
//! (in memory, and over HTTP for the binding) and look at the bytes that come back. The table
//! and the count (applicable / passing) are printed; any failing requirement fails the test.

mod common;

use common::{http, TestService};
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::certificate::{AppPermission, CertRef};
use v2x_security::encryption::{symmetric_key_id, DecryptionKey};
use v2x_security::ts102941::aa::{relay_code, AaPolicy};
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::authorities::Authorities;
use v2x_security::ts102941::ea::{EaPolicy, EcRecord, StationRecord};
use v2x_security::ts102941::envelope::{self, SignedMessage, SignerId};
use v2x_security::ts102941::station::{self, key_tag, AuthorizationOptions, AuthorizationOutcome, EnrolmentIdentity};
use v2x_security::ts102941::wire::{
    self, AuthorizationResponseCode as Arc_, AuthorizationValidationResponseCode as Avc, CertificateSubjectAttributes,
    EcSignature, EnrolmentResponseCode as Erc, EtsiTs102941DataContent,
};
use v2x_security::ts102941::{request_hash, Freshness, NotOpened};
use v2x_security::{Authority, ItsAid, TaiTime};
use v2x_wire::ieee1609dot2 as w1609;

type Check = fn(&Fixture) -> Result<(), String>;

struct Requirement {
    clause: &'static str,
    role: &'static str,
    shall: &'static str,
    tp: &'static str,
    check: Check,
}

/// Authorities, a registered station and its EC.
struct Fixture {
    auth: Authorities,
    canonical: PrivateKey,
    station: StationRecord,
    ec: Authority,
}

fn ec_attrs() -> CertificateSubjectAttributes {
    attributes(
        &[AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![1, 0xc0]))],
        None,
        None,
    )
}

fn at_attrs() -> CertificateSubjectAttributes {
    attributes(
        &[AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))],
        None,
        None,
    )
}

impl Fixture {
    fn new() -> Fixture {
        let auth = Authorities::create(Curve::NistP256, TaiTime::now()).unwrap();
        let canonical = PrivateKey::generate(Curve::NistP256).unwrap();
        let station = StationRecord {
            canonical_key: canonical.public_key().clone(),
            revoked: false,
            at_permissions: vec![
                AppPermission::new(ItsAid::CAM, None),
                AppPermission::new(ItsAid::DENM, None),
            ],
        };
        let mut f = Fixture {
            ec: Authority {
                certificate: auth.ea.authority.certificate.clone(),
                key: auth.ea.authority.key.clone(),
            },
            auth,
            canonical,
            station,
        };
        let req = f.enrolment(f.identity(), TaiTime::now());
        let ea = f.ea();
        let opened = ea.open_enrolment(&req.message, TaiTime::now()).unwrap();
        let cert = ea
            .decide_enrolment(&opened, Some(&f.station), None, TaiTime::now())
            .unwrap();
        f.ec = Authority {
            certificate: cert,
            key: req.verification_key,
        };
        f
    }
    fn ea(&self) -> v2x_security::ts102941::ea::EnrolmentAuthority {
        self.auth.enrolment_authority(EaPolicy::default())
    }
    fn aa(&self) -> v2x_security::ts102941::aa::AuthorizationAuthority {
        self.auth.authorization_authority(AaPolicy::default())
    }
    fn ea_cert(&self) -> &CertRef {
        &self.auth.ea.authority.certificate
    }
    fn aa_cert(&self) -> &CertRef {
        &self.auth.aa.authority.certificate
    }
    fn ea_key(&self) -> DecryptionKey {
        DecryptionKey {
            certificate: self.ea_cert().clone(),
            key: self.auth.ea.encryption_key.clone(),
        }
    }
    fn aa_key(&self) -> DecryptionKey {
        DecryptionKey {
            certificate: self.aa_cert().clone(),
            key: self.auth.aa.encryption_key.clone(),
        }
    }
    fn identity(&self) -> EnrolmentIdentity<'_> {
        EnrolmentIdentity::Canonical {
            its_id: b"conformance-its",
            key: &self.canonical,
        }
    }
    fn enrolment(&self, id: EnrolmentIdentity<'_>, now: TaiTime) -> station::EnrolmentRequest {
        station::enrolment_request(id, self.ea_cert(), &ec_attrs(), Curve::NistP256, true, now).unwrap()
    }
    fn at_request(&self, options: AuthorizationOptions, now: TaiTime) -> station::AuthorizationRequest {
        station::authorization_request(&self.ec, self.ea_cert(), self.aa_cert(), &at_attrs(), options, now).unwrap()
    }
    fn ec_record(&self) -> EcRecord {
        EcRecord {
            certificate: self.ec.certificate.clone(),
            revoked: false,
            at_permissions: self.station.at_permissions.clone(),
        }
    }
    /// The whole AA → EA → AA exchange for `req`; the AA's final response bytes.
    fn authorize(&self, req: &station::AuthorizationRequest, ec: Option<&EcRecord>) -> Result<Vec<u8>, String> {
        let (aa, ea, now) = (self.aa(), self.ea(), TaiTime::now());
        let opened = match aa.open_authorization(&req.message, now) {
            Ok(o) => o,
            Err(NotOpened::Refused(reply, r)) => {
                return aa
                    .authorization_response(&reply, r.code, None, now)
                    .map_err(|e| e.to_string())
            }
            Err(NotOpened::Unanswerable(r)) => return Err(format!("unanswerable: {}", r.reason)),
        };
        let pending = aa.validation_request(&opened, now).map_err(|e| e.to_string())?;
        let v = ea
            .open_validation(&pending.message, now)
            .map_err(|e| format!("{e:?}"))?;
        let (code, confirmed) = match ea.decide_validation(&v, ec, now) {
            Ok(c) => (Avc::Ok, Some(c)),
            Err(r) => (r.code, None),
        };
        let vr = ea
            .validation_response(&v.reply, code, confirmed, now)
            .map_err(|e| e.to_string())?;
        let (code, confirmed) = aa
            .read_validation_response(&vr, &pending, self.ea_cert())
            .map_err(|e| e.to_string())?;
        match (code, confirmed) {
            (Avc::Ok, Some(c)) => {
                let at = aa.issue_at(&opened, &c, now).map_err(|r| r.reason)?;
                aa.authorization_response(&opened.reply, Arc_::Ok, Some(&at), now)
                    .map_err(|e| e.to_string())
            }
            (code, _) => aa
                .authorization_response(&opened.reply, relay_code(code), None, now)
                .map_err(|e| e.to_string()),
        }
    }
}

fn ensure(cond: bool, what: impl Into<String>) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what.into())
    }
}

fn encrypted(bytes: &[u8]) -> Result<w1609::EncryptedData, String> {
    let (d, _) = w1609::parse_data(bytes).map_err(|e| e.to_string())?;
    w1609::encrypted_data(&d)
        .cloned()
        .ok_or_else(|| "not encrypted data".into())
}

/// The envelope is encrypted with `certRecipInfo` naming `cert` and AES-128-CCM.
fn encrypted_to(bytes: &[u8], cert: &CertRef) -> Result<(), String> {
    let e = encrypted(bytes)?;
    let named = e.recipients.0.iter().any(|r| {
        matches!(r, w1609::RecipientInfo::CertRecipInfo(p)
        if v2x_security::convert::hashed_id8_from_wire(&p.recipient_id) == cert.hashed_id8())
    });
    ensure(named, "no certRecipInfo for the recipient")?;
    ensure(
        matches!(e.ciphertext, w1609::SymmetricCiphertext::Aes128ccm(_)),
        "not AES-128-CCM",
    )
}

/// A response envelope: `pskRecipInfo` = HashedId8 of the request's key; returns the plaintext.
fn psk_response(bytes: &[u8], request_key: &[u8; 16]) -> Result<Vec<u8>, String> {
    let e = encrypted(bytes)?;
    let id = symmetric_key_id(request_key);
    let named = e.recipients.0.iter().any(|r| {
        matches!(r, w1609::RecipientInfo::PskRecipInfo(p)
        if v2x_security::convert::hashed_id8_from_wire(&p.0) == id)
    });
    ensure(named, "no pskRecipInfo naming the request's key")?;
    envelope::decrypt_psk(bytes, request_key).map_err(|e| e.to_string())
}

fn key_of(sealed_request: &[u8], own: &DecryptionKey) -> Result<([u8; 16], Vec<u8>), String> {
    let (plain, key) = envelope::decrypt_request(sealed_request, own).map_err(|e| e.to_string())?;
    Ok((key, plain))
}

fn content(signed_plain: &[u8]) -> Result<(SignedMessage, wire::EtsiTs102941Data), String> {
    let s = SignedMessage::parse(signed_plain).map_err(|e| e.to_string())?;
    let d = wire::decode(s.data().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    Ok((s, d))
}

fn enrolment_refusal(f: &Fixture, message: &[u8], station: Option<&StationRecord>) -> Option<Erc> {
    let ea = f.ea();
    match ea.open_enrolment(message, TaiTime::now()) {
        Ok(o) => ea
            .decide_enrolment(&o, station, None, TaiTime::now())
            .err()
            .map(|r| r.code),
        Err(NotOpened::Refused(_, r)) => Some(r.code),
        Err(NotOpened::Unanswerable(r)) => Some(r.code),
    }
}

fn at_code(f: &Fixture, req: station::AuthorizationRequest, ec: Option<&EcRecord>) -> Result<Arc_, String> {
    let resp = f.authorize(&req, ec)?;
    match station::read_authorization_response(&resp, req, f.aa_cert()).map_err(|e| e.to_string())? {
        AuthorizationOutcome::Authorized(_) => Ok(Arc_::Ok),
        AuthorizationOutcome::Refused(c) => Ok(c),
    }
}

fn requirements() -> Vec<Requirement> {
    vec![
        // ---- §6.2.3.2.1 enrolment request (ITS-S) --------------------------------------
        Requirement {
            clause: "6.2.3.2.1",
            role: "ITS-S",
            shall: "the EnrolmentRequestMessage shall be EtsiTs103097Data-SignedAndEncrypted-Unicast, encrypted to the EA (certRecipInfo, AES-CCM)",
            tp: "-",
            check: |f| encrypted_to(&f.enrolment(f.identity(), TaiTime::now()).message, f.ea_cert()),
        },
        Requirement {
            clause: "6.2.3.2.1",
            role: "ITS-S",
            shall: "an initial request shall be signed with the canonical key (signer self) and carry the canonical id as itsId",
            tp: "-",
            check: |f| {
                let (_, plain) = key_of(&f.enrolment(f.identity(), TaiTime::now()).message, &f.ea_key())?;
                let (outer, data) = content(&plain)?;
                outer.verify_own(f.canonical.public_key()).map_err(|e| e.to_string())?;
                let EtsiTs102941DataContent::EnrolmentRequest(pop) = data.content else {
                    return Err("not an enrolment request".into());
                };
                let pop = SignedMessage::parse(&w1609::encode(&pop).unwrap()).map_err(|e| e.to_string())?;
                let inner = wire::decode_inner_ec_request(pop.data().unwrap()).map_err(|e| e.to_string())?;
                ensure(&inner.its_id[..] == b"conformance-its", "itsId is not the canonical id")
            },
        },
        Requirement {
            clause: "6.2.3.2.1",
            role: "ITS-S",
            shall: "the InnerEcRequest shall be signed with the private key of its verificationKey (InnerEcRequestSignedForPop, proof of possession)",
            tp: "-",
            check: |f| {
                let req = f.enrolment(f.identity(), TaiTime::now());
                let (_, plain) = key_of(&req.message, &f.ea_key())?;
                let (outer, _) = content(&plain)?;
                let c = outer.data().unwrap();
                let span = wire::nested_spans(c).unwrap().secured.ok_or("no PoP")?;
                let pop = SignedMessage::parse(&c[span]).map_err(|e| e.to_string())?;
                ensure(matches!(pop.signer, SignerId::Own), "PoP signer is not self")?;
                pop.verify_own(req.verification_key.public_key()).map_err(|e| e.to_string())
            },
        },
        Requirement {
            clause: "6.2.3.2.1",
            role: "ITS-S",
            shall: "a re-enrolment shall be signed by the current EC (signer digest) and carry its HashedId8 as itsId",
            tp: "-",
            check: |f| {
                let req = f.enrolment(EnrolmentIdentity::Reenrolment { ec: &f.ec }, TaiTime::now());
                let (_, plain) = key_of(&req.message, &f.ea_key())?;
                let (outer, _) = content(&plain)?;
                ensure(matches!(outer.signer, SignerId::Digest(d) if d == f.ec.certificate.hashed_id8()), "signer is not the EC digest")?;
                outer.verify_by(&f.ec.certificate).map_err(|e| e.to_string())?;
                let o = f.ea().open_enrolment(&req.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                ensure(
                    o.requester == v2x_security::ts102941::ea::Requester::Enrolled(f.ec.certificate.hashed_id8()),
                    "itsId is not the EC's HashedId8",
                )
            },
        },
        Requirement {
            clause: "6.2.3.2.1",
            role: "ITS-S",
            shall: "the signed requests shall carry PSID 623 and the generation time in headerInfo; certificateFormat shall be ts103097v131; EtsiTs102941Data version v1",
            tp: "-",
            check: |f| {
                let now = TaiTime::now();
                let (_, plain) = key_of(&f.enrolment(f.identity(), now).message, &f.ea_key())?;
                let (outer, data) = content(&plain)?;
                ensure(outer.psid == Some(ItsAid::CERT_REQUEST), "PSID")?;
                ensure(outer.generation_time == Some(now), "generation time")?;
                ensure(data.version == 1, "version")?;
                let EtsiTs102941DataContent::EnrolmentRequest(pop) = data.content else { return Err("content".into()) };
                let pop = SignedMessage::parse(&w1609::encode(&pop).unwrap()).unwrap();
                ensure(pop.psid == Some(ItsAid::CERT_REQUEST) && pop.generation_time.is_some(), "PoP header")?;
                let inner = wire::decode_inner_ec_request(pop.data().unwrap()).unwrap();
                ensure(inner.certificate_format == wire::CertificateFormat::TS103097V131, "certificate format")?;
                ensure(inner.requested_subject_attributes.cert_issue_permissions.is_none(), "certIssuePermissions present")
            },
        },
        // ---- §6.2.3.2.2 enrolment response (EA) ----------------------------------------
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "the EnrolmentResponseMessage shall be signed by the EA and encrypted with the request's AES key (pskRecipInfo = its HashedId8)",
            tp: "-",
            check: |f| {
                let req = f.enrolment(f.identity(), TaiTime::now());
                let (key, _) = key_of(&req.message, &f.ea_key())?;
                let ea = f.ea();
                let o = ea.open_enrolment(&req.message, TaiTime::now()).unwrap();
                let c = ea.decide_enrolment(&o, Some(&f.station), None, TaiTime::now()).map_err(|r| r.reason)?;
                let resp = ea.enrolment_response(&o.reply, Erc::Ok, Some(&c), TaiTime::now()).unwrap();
                let plain = psk_response(&resp, &key)?;
                let (s, _) = content(&plain)?;
                ensure(matches!(s.signer, SignerId::Digest(d) if d == f.ea_cert().hashed_id8()), "not signed by the EA digest")?;
                s.verify_by(f.ea_cert()).map_err(|e| e.to_string())
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "requestHash shall be the leftmost 16 octets of the SHA-256 of the request message",
            tp: "-",
            check: |f| {
                let req = f.enrolment(f.identity(), TaiTime::now());
                let (key, _) = key_of(&req.message, &f.ea_key())?;
                let ea = f.ea();
                let o = ea.open_enrolment(&req.message, TaiTime::now()).unwrap();
                let resp = ea.enrolment_response(&o.reply, Erc::Unknownits, None, TaiTime::now()).unwrap();
                let (_, d) = content(&psk_response(&resp, &key)?)?;
                let EtsiTs102941DataContent::EnrolmentResponse(r) = d.content else { return Err("content".into()) };
                ensure(r.request_hash[..] == request_hash(&req.message)[..], "requestHash")
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "the certificate shall be present exactly when responseCode is ok, and be an EC for the requested key issued by the EA",
            tp: "-",
            check: |f| {
                let req = f.enrolment(f.identity(), TaiTime::now());
                let resp = {
                    let ea = f.ea();
                    let o = ea.open_enrolment(&req.message, TaiTime::now()).unwrap();
                    let c = ea.decide_enrolment(&o, Some(&f.station), None, TaiTime::now()).unwrap();
                    ensure(ea.enrolment_response(&o.reply, Erc::Ok, None, TaiTime::now()).is_err(), "ok without certificate accepted")?;
                    ea.enrolment_response(&o.reply, Erc::Ok, Some(&c), TaiTime::now()).unwrap()
                };
                let key = req.verification_key.public_key().clone();
                match station::read_enrolment_response(&resp, req, f.ea_cert()).map_err(|e| e.to_string())? {
                    station::EnrolmentOutcome::Enrolled { ec, .. } => {
                        ensure(ec.certificate.verification_key() == &key, "EC for another key")?;
                        ensure(ec.certificate.verify_signature(Some(f.ea_cert())), "EC not issued by the EA")?;
                        ensure(ec.certificate.permission_for(ItsAid::CERT_REQUEST).is_some(), "EC without PSID 623")
                    }
                    _ => Err("refused".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a request not encrypted to the EA shall be refused (imnottherecipient)",
            tp: "-",
            check: |f| {
                let m = station::enrolment_request(f.identity(), f.aa_cert(), &ec_attrs(), Curve::NistP256, false, TaiTime::now()).unwrap().message;
                ensure(enrolment_refusal(f, &m, Some(&f.station)) == Some(Erc::Imnottherecipient), "not imnottherecipient")
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a request whose decryption fails shall be refused (decryptionfailed)",
            tp: "-",
            check: |f| {
                let mut m = f.enrolment(f.identity(), TaiTime::now()).message;
                let n = m.len();
                m[n - 1] ^= 1; // the AES-CCM tag
                ensure(enrolment_refusal(f, &m, Some(&f.station)) == Some(Erc::Decryptionfailed), "not decryptionfailed")
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a request from an unknown ITS-S shall be refused (unknownits)",
            tp: "-",
            check: |f| ensure(enrolment_refusal(f, &f.enrolment(f.identity(), TaiTime::now()).message, None) == Some(Erc::Unknownits), "not unknownits"),
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a request from a revoked ITS-S shall be refused (baditsstatus)",
            tp: "-",
            check: |f| {
                let revoked = StationRecord { revoked: true, ..f.station.clone() };
                ensure(enrolment_refusal(f, &f.enrolment(f.identity(), TaiTime::now()).message, Some(&revoked)) == Some(Erc::Baditsstatus), "not baditsstatus")
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a request whose outer signature does not verify with the canonical key shall be refused (invalidsignature)",
            tp: "-",
            check: |f| {
                let other = PrivateKey::generate(Curve::NistP256).unwrap();
                let m = f.enrolment(EnrolmentIdentity::Canonical { its_id: b"conformance-its", key: &other }, TaiTime::now()).message;
                ensure(enrolment_refusal(f, &m, Some(&f.station)) == Some(Erc::Invalidsignature), "not invalidsignature")
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "a re-enrolment with an expired EC shall be refused (baditsstatus)",
            tp: "-",
            check: |f| {
                let later = TaiTime::from_time32(f.ec.certificate.validity().end as u32 + 60);
                let m = f.enrolment(EnrolmentIdentity::Reenrolment { ec: &f.ec }, later).message;
                let ea = f.ea();
                let o = ea.open_enrolment(&m, later).map_err(|e| format!("{e:?}"))?;
                let code = ea.decide_enrolment(&o, None, Some(&f.ec_record()), later).err().map(|r| r.code);
                ensure(code == Some(Erc::Baditsstatus), format!("{code:?}"))
            },
        },
        Requirement {
            clause: "6.2.3.2.2",
            role: "EA",
            shall: "permissions the EA does not grant shall be refused (deniedpermissions)",
            tp: "-",
            check: |f| {
                let m = station::enrolment_request(f.identity(), f.ea_cert(), &at_attrs(), Curve::NistP256, false, TaiTime::now()).unwrap().message;
                ensure(enrolment_refusal(f, &m, Some(&f.station)) == Some(Erc::Deniedpermissions), "not deniedpermissions")
            },
        },
        // ---- §6.2.3.3.1 authorization request (ITS-S) -------------------------------------
        Requirement {
            clause: "6.2.3.3.1",
            role: "ITS-S",
            shall: "the AuthorizationRequestMessage shall be encrypted to the AA (certRecipInfo, AES-CCM); WithPop signed by the AT key (signer self)",
            tp: "-",
            check: |f| {
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now());
                encrypted_to(&req.message, f.aa_cert())?;
                let (_, plain) = key_of(&req.message, &f.aa_key())?;
                let pop = SignedMessage::parse(&plain).map_err(|e| e.to_string())?;
                pop.verify_own(req.verification_key.public_key()).map_err(|e| e.to_string())?;
                let plain_nopop = key_of(&f.at_request(AuthorizationOptions { proof_of_possession: false, ..Default::default() }, TaiTime::now()).message, &f.aa_key())?.1;
                ensure(wire::decode(&plain_nopop).is_ok(), "request without PoP is not bare EtsiTs102941Data")
            },
        },
        Requirement {
            clause: "6.2.3.3.1",
            role: "ITS-S",
            shall: "keyTag shall be the leftmost 128 bits of HMAC-SHA256(hmacKey, verificationKey ‖ encryptionKey); eaId the EA's HashedId8",
            tp: "-",
            check: |f| {
                let (_, plain) = key_of(&f.at_request(AuthorizationOptions { proof_of_possession: false, ..Default::default() }, TaiTime::now()).message, &f.aa_key())?;
                let EtsiTs102941DataContent::AuthorizationRequest(r) = wire::decode(&plain).unwrap().content else { return Err("content".into()) };
                let mut hk = [0u8; 32];
                hk.copy_from_slice(&r.hmac_key[..]);
                ensure(key_tag(&hk, &r.public_keys).unwrap()[..] == r.shared_at_request.key_tag[..], "keyTag")?;
                ensure(v2x_security::convert::hashed_id8_from_wire(&r.shared_at_request.ea_id) == f.ea_cert().hashed_id8(), "eaId")
            },
        },
        Requirement {
            clause: "6.2.3.3.1",
            role: "ITS-S",
            shall: "ecSignature shall be a SignedExternalPayload by the EC over SHA-256(sharedAtRequest); with privacy it shall be encrypted for the EA",
            tp: "-",
            check: |f| {
                for privacy in [true, false] {
                    let (_, plain) = key_of(&f.at_request(AuthorizationOptions { privacy, proof_of_possession: false, ..Default::default() }, TaiTime::now()).message, &f.aa_key())?;
                    let spans = wire::nested_spans(&plain).unwrap();
                    let sig_bytes = &plain[spans.secured.clone().unwrap()];
                    let sig_plain = match (privacy, &wire::decode(&plain).unwrap().content) {
                        (true, EtsiTs102941DataContent::AuthorizationRequest(r)) if matches!(r.ec_signature, EcSignature::EncryptedEcSignature(_)) => {
                            encrypted_to(sig_bytes, f.ea_cert())?;
                            key_of(sig_bytes, &f.ea_key())?.1
                        }
                        (false, EtsiTs102941DataContent::AuthorizationRequest(r)) if matches!(r.ec_signature, EcSignature::EcSignature(_)) => sig_bytes.to_vec(),
                        _ => return Err("wrong EcSignature alternative".into()),
                    };
                    let s = SignedMessage::parse(&sig_plain).map_err(|e| e.to_string())?;
                    s.verify_by(&f.ec.certificate).map_err(|e| e.to_string())?;
                    let h = v2x_crypto::sha256(&plain[spans.shared_at_request.clone().unwrap()]);
                    ensure(s.payload == envelope::Payload::ExternalHash(h), "extDataHash")?;
                    ensure(s.psid == Some(ItsAid::CERT_REQUEST) && s.generation_time.is_some(), "header")?;
                }
                Ok(())
            },
        },
        // ---- §6.2.3.3.2 authorization response (AA) -------------------------------------
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "the AuthorizationResponseMessage shall be signed by the AA and encrypted with the request's AES key (pskRecipInfo); requestHash of the request",
            tp: "-",
            check: |f| {
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now());
                let (key, _) = key_of(&req.message, &f.aa_key())?;
                let resp = f.authorize(&req, Some(&f.ec_record()))?;
                let (s, d) = content(&psk_response(&resp, &key)?)?;
                s.verify_by(f.aa_cert()).map_err(|e| e.to_string())?;
                let EtsiTs102941DataContent::AuthorizationResponse(r) = d.content else { return Err("content".into()) };
                ensure(r.request_hash[..] == request_hash(&req.message)[..], "requestHash")?;
                ensure(r.response_code == Arc_::Ok && r.certificate.is_some(), "ok with certificate")
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "the AT shall certify the requested keys with the requested (validated) permissions, issued by the AA",
            tp: "-",
            check: |f| {
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now());
                let (vk, ek) = (req.verification_key.public_key().clone(), req.encryption_key.as_ref().map(|k| k.public_key().clone()));
                let resp = f.authorize(&req, Some(&f.ec_record()))?;
                match station::read_authorization_response(&resp, req, f.aa_cert()).map_err(|e| e.to_string())? {
                    AuthorizationOutcome::Authorized(t) => {
                        ensure(t.certificate.verification_key() == &vk, "verification key")?;
                        ensure(t.certificate.encryption_key() == ek.as_ref(), "encryption key")?;
                        ensure(t.certificate.permission_for(ItsAid::CAM) == Some(Some(&[1u8, 0xff, 0xfc][..])), "permissions")?;
                        ensure(t.certificate.verify_signature(Some(f.aa_cert())), "issuer")
                    }
                    AuthorizationOutcome::Refused(c) => Err(format!("refused {}", c.name())),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "the AA shall verify keyTag against the public keys (its-aa-keysdontmatch)",
            tp: "-",
            check: |f| {
                let aa = f.aa();
                let req = f.at_request(AuthorizationOptions { proof_of_possession: false, ..Default::default() }, TaiTime::now());
                let (_, mut plain) = key_of(&req.message, &f.aa_key())?;
                let spans = wire::nested_spans(&plain).unwrap();
                let tag_at = spans.shared_at_request.unwrap().start + 1 + 8; // preamble, eaId
                plain[tag_at] ^= 1;
                let m = envelope::encrypt_to(&plain, f.aa_cert()).unwrap().bytes;
                match aa.open_authorization(&m, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Arc_::ItsAaKeysdontmatch, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "the AA shall check the proof of possession when present (its-aa-keysdontmatch)",
            tp: "-",
            check: |f| {
                let aa = f.aa();
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now());
                let (_, plain) = key_of(&req.message, &f.aa_key())?;
                let s = SignedMessage::parse(&plain).unwrap();
                let other = PrivateKey::generate(Curve::NistP256).unwrap();
                let resigned = envelope::sign(s.data().unwrap(), envelope::Signer::Own(&other), TaiTime::now()).unwrap();
                let m = envelope::encrypt_to(&resigned, f.aa_cert()).unwrap().bytes;
                match aa.open_authorization(&m, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Arc_::ItsAaKeysdontmatch, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "a request naming an EA the AA does not know shall be refused (its-aa-unknownea)",
            tp: "-",
            check: |f| {
                let foreign = Authorities::create(Curve::NistP256, TaiTime::now()).unwrap();
                let req = station::authorization_request(&f.ec, &foreign.ea.authority.certificate, f.aa_cert(), &at_attrs(), AuthorizationOptions::default(), TaiTime::now()).unwrap();
                match f.aa().open_authorization(&req.message, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Arc_::ItsAaUnknownea, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "a request signed outside acceptable time limits shall be refused (its-aa-outofsyncrequest)",
            tp: "-",
            check: |f| {
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now().saturating_sub(Duration::from_secs(3600)));
                match f.aa().open_authorization(&req.message, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Arc_::ItsAaOutofsyncrequest, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "a request not encrypted to the AA shall get no response it cannot make (its-aa-imnottherecipient, in clear)",
            tp: "-",
            check: |f| {
                let req = station::authorization_request(&f.ec, f.ea_cert(), f.ea_cert(), &at_attrs(), AuthorizationOptions::default(), TaiTime::now()).unwrap();
                match f.aa().open_authorization(&req.message, TaiTime::now()) {
                    Err(NotOpened::Unanswerable(r)) => ensure(r.code == Arc_::ItsAaImnottherecipient, r.code.name()),
                    _ => Err("answered".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.3.2",
            role: "AA",
            shall: "the AA shall relay the EA's refusal: an unknown EC gives unknownits",
            tp: "-",
            check: |f| ensure(at_code(f, f.at_request(AuthorizationOptions::default(), TaiTime::now()), None)? == Arc_::Unknownits, "not unknownits"),
        },
        // ---- §6.2.3.4.1 authorization validation request (AA) ---------------------------
        Requirement {
            clause: "6.2.3.4.1",
            role: "AA",
            shall: "the AuthorizationValidationRequestMessage shall be signed by the AA (digest) and encrypted to the EA",
            tp: "-",
            check: |f| {
                let aa = f.aa();
                let o = aa.open_authorization(&f.at_request(AuthorizationOptions::default(), TaiTime::now()).message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let p = aa.validation_request(&o, TaiTime::now()).map_err(|e| e.to_string())?;
                encrypted_to(&p.message, f.ea_cert())?;
                let (_, plain) = key_of(&p.message, &f.ea_key())?;
                let (s, d) = content(&plain)?;
                ensure(matches!(s.signer, SignerId::Digest(x) if x == f.aa_cert().hashed_id8()), "signer")?;
                s.verify_by(f.aa_cert()).map_err(|e| e.to_string())?;
                ensure(matches!(d.content, EtsiTs102941DataContent::AuthorizationValidationRequest(_)), "content")
            },
        },
        Requirement {
            clause: "6.2.3.4.1",
            role: "AA",
            shall: "it shall carry the sharedAtRequest and the ecSignature as received, and never the AT's public keys",
            tp: "-",
            check: |f| {
                let req = f.at_request(AuthorizationOptions::default(), TaiTime::now());
                let (_, at_plain) = key_of(&req.message, &f.aa_key())?;
                let inner = SignedMessage::parse(&at_plain).unwrap().data().unwrap().to_vec();
                let ispans = wire::nested_spans(&inner).unwrap();
                let aa = f.aa();
                let o = aa.open_authorization(&req.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let p = aa.validation_request(&o, TaiTime::now()).unwrap();
                let (_, plain) = key_of(&p.message, &f.ea_key())?;
                let c = SignedMessage::parse(&plain).unwrap().data().unwrap().to_vec();
                let vspans = wire::nested_spans(&c).unwrap();
                ensure(c[vspans.secured.unwrap()] == inner[ispans.secured.unwrap()], "ecSignature changed")?;
                ensure(c[vspans.shared_at_request.unwrap()] == inner[ispans.shared_at_request.unwrap()], "sharedAtRequest changed")?;
                let x = &req.verification_key.public_key().to_sec1(true)[1..];
                ensure(!plain.windows(x.len()).any(|w| w == x), "the AT key reaches the EA")
            },
        },
        // ---- §6.2.3.4.2 authorization validation response (EA) --------------------------
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "the AuthorizationValidationResponseMessage shall be signed by the EA, encrypted with the request's AES key, version v1, requestHash of the request",
            tp: "SECPKI_EA_AUTHVAL_06_BV",
            check: |f| {
                let aa = f.aa();
                let o = aa.open_authorization(&f.at_request(AuthorizationOptions::default(), TaiTime::now()).message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let p = aa.validation_request(&o, TaiTime::now()).unwrap();
                let (key, _) = key_of(&p.message, &f.ea_key())?;
                let ea = f.ea();
                let v = ea.open_validation(&p.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let c = ea.decide_validation(&v, Some(&f.ec_record()), TaiTime::now()).map_err(|r| r.reason)?;
                let resp = ea.validation_response(&v.reply, Avc::Ok, Some(c), TaiTime::now()).unwrap();
                let (s, d) = content(&psk_response(&resp, &key)?)?;
                s.verify_by(f.ea_cert()).map_err(|e| e.to_string())?;
                ensure(d.version == 1, "version")?;
                let EtsiTs102941DataContent::AuthorizationValidationResponse(r) = d.content else { return Err("content".into()) };
                ensure(r.request_hash[..] == request_hash(&p.message)[..], "requestHash")?;
                let attrs = r.confirmed_subject_attributes.ok_or("no confirmed attributes")?;
                ensure(attrs.cert_issue_permissions.is_none(), "certIssuePermissions confirmed")
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "confirmedSubjectAttributes shall be absent when the responseCode is not ok",
            tp: "-",
            check: |f| {
                let ea = f.ea();
                let aa = f.aa();
                let o = aa.open_authorization(&f.at_request(AuthorizationOptions::default(), TaiTime::now()).message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let p = aa.validation_request(&o, TaiTime::now()).unwrap();
                let v = ea.open_validation(&p.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let resp = ea.validation_response(&v.reply, Avc::Unknownits, Some(at_attrs()), TaiTime::now()).unwrap();
                let (code, attrs) = aa.read_validation_response(&resp, &p, f.ea_cert()).map_err(|e| e.to_string())?;
                ensure(code == Avc::Unknownits && attrs.is_none(), "attributes with a refusal")
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "a validation request from an AA the EA does not know shall be refused (invalidaa)",
            tp: "-",
            check: |f| {
                // A foreign AA (not in the EA's list) forwards a request that names our EA.
                let foreign = Authorities::create(Curve::NistP256, TaiTime::now()).unwrap();
                let req = station::authorization_request(&f.ec, f.ea_cert(), &foreign.aa.authority.certificate, &at_attrs(), AuthorizationOptions::default(), TaiTime::now()).unwrap();
                let faa = v2x_security::ts102941::aa::AuthorizationAuthority::new(foreign.aa.authority.clone(), foreign.aa.encryption_key.clone(), vec![f.ea_cert().clone()], AaPolicy::default());
                let o = faa.open_authorization(&req.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let p = faa.validation_request(&o, TaiTime::now()).unwrap();
                match f.ea().open_validation(&p.message, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Avc::Invalidaa, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "an EC signature that does not verify shall be refused (invalidsignature)",
            tp: "-",
            check: |f| {
                // The EA's record names another certificate under the same HashedId8.
                let other = f.ea().decide_enrolment(
                    &f.ea().open_enrolment(&f.enrolment(f.identity(), TaiTime::now()).message, TaiTime::now()).unwrap(),
                    Some(&f.station), None, TaiTime::now()).unwrap();
                let wrong = EcRecord { certificate: other, ..f.ec_record() };
                ensure(at_code(f, f.at_request(AuthorizationOptions::default(), TaiTime::now()), Some(&wrong))? == Arc_::Invalidsignature, "not invalidsignature")
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "a request whose eaId names another EA shall be refused (wrongea)",
            tp: "-",
            check: |f| {
                // Our AA trusts a second EA; the station names it; our EA receives the validation.
                let other = Authorities::create(Curve::NistP256, TaiTime::now()).unwrap();
                let aa = v2x_security::ts102941::aa::AuthorizationAuthority::new(f.auth.aa.authority.clone(), f.auth.aa.encryption_key.clone(), vec![other.ea.authority.certificate.clone()], AaPolicy::default());
                let req = station::authorization_request(&f.ec, &other.ea.authority.certificate, f.aa_cert(), &at_attrs(), AuthorizationOptions { privacy: false, ..Default::default() }, TaiTime::now()).unwrap();
                let o = aa.open_authorization(&req.message, TaiTime::now()).map_err(|e| format!("{e:?}"))?;
                let mut p = aa.validation_request(&o, TaiTime::now()).unwrap();
                // Re-seal the same signed request to our EA.
                let (plain, _) = envelope::decrypt_request(&p.message, &DecryptionKey { certificate: other.ea.authority.certificate.clone(), key: other.ea.encryption_key.clone() }).unwrap();
                p.message = envelope::encrypt_to(&plain, f.ea_cert()).unwrap().bytes;
                match f.ea().open_validation(&p.message, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Avc::Wrongea, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "permissions the ITS-S may not have shall be refused (deniedpermissions)",
            tp: "-",
            check: |f| {
                let narrow = EcRecord { at_permissions: vec![AppPermission::new(ItsAid::DENM, None)], ..f.ec_record() };
                ensure(at_code(f, f.at_request(AuthorizationOptions::default(), TaiTime::now()), Some(&narrow))? == Arc_::Deniedpermissions, "not deniedpermissions")
            },
        },
        Requirement {
            clause: "6.2.3.4.2",
            role: "EA",
            shall: "a validation request signed outside acceptable time limits shall be refused",
            tp: "-",
            check: |f| {
                let ea = v2x_security::ts102941::ea::EnrolmentAuthority::new(f.auth.ea.authority.clone(), f.auth.ea.encryption_key.clone(), vec![f.aa_cert().clone()], EaPolicy { freshness: Freshness { max_age: Duration::from_secs(1), max_ahead: Duration::from_secs(1) }, ..EaPolicy::default() });
                let aa = f.aa();
                let then = TaiTime::now().saturating_sub(Duration::from_secs(60));
                let o = aa.open_authorization(&f.at_request(AuthorizationOptions::default(), then).message, then).map_err(|e| format!("{e:?}"))?;
                let p = aa.validation_request(&o, then).unwrap();
                match ea.open_validation(&p.message, TaiTime::now()) {
                    Err(NotOpened::Refused(_, r)) => ensure(r.code == Avc::Deniedrequest, r.code.name()),
                    _ => Err("accepted".into()),
                }
            },
        },
    ]
}

/// Requirements of the HTTP binding, checked against a running service.
fn binding_requirements(
    svc: &TestService,
    tmp: &std::path::Path,
) -> Vec<(&'static str, &'static str, &'static str, Result<(), String>)> {
    use v2x_pki_service::config::{content_type, paths};
    let client = reqwest::blocking::Client::new();
    let st = svc.station(&tmp.join("binding-car"), "binding-car");
    let auth = svc.authorities(&st);
    let ec = st.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    let req = station::authorization_request(
        &ec,
        &auth.ea,
        &auth.aa,
        &at_attrs(),
        AuthorizationOptions::default(),
        TaiTime::now(),
    )
    .unwrap();
    let r = client
        .post(format!("{}{}", svc.url, paths::AUTHORIZATION))
        .header("content-type", content_type::REQUEST)
        .body(req.message.clone())
        .send()
        .unwrap();
    let (status, ct) = (
        r.status().as_u16(),
        r.headers()["content-type"].to_str().unwrap().to_string(),
    );
    let body = r.bytes().unwrap().to_vec();
    let refused = client
        .post(format!("{}{}", svc.url, paths::ENROLMENT))
        .header("content-type", content_type::REQUEST)
        .body(f_refusable(&auth))
        .send()
        .unwrap();
    vec![
        (
            "binding",
            "requests shall be sent by HTTP POST with Content-Type application/x-its-request; responses come as 200 with application/x-its-response",
            "-",
            ensure(status == 200 && ct == content_type::RESPONSE, format!("{status} {ct}")).and_then(|_| {
                match station::read_authorization_response(&body, req, &auth.aa).map_err(|e| e.to_string())? {
                    AuthorizationOutcome::Authorized(_) => Ok(()),
                    AuthorizationOutcome::Refused(c) => Err(c.name().into()),
                }
            }),
        ),
        (
            "binding",
            "a refusal is an ITS response too (200, the response code inside)",
            "-",
            ensure(refused.status() == 200 && refused.headers()["content-type"] == content_type::RESPONSE, refused.status().to_string()),
        ),
        (
            "binding",
            "the RCA's CTL and CRL shall be served by the DC by HTTP GET, named by the RCA's HashedId8; the ECTL by the TLM",
            "-",
            (|| {
                for path in [
                    format!("{}/{}", paths::CTL, auth.root.hashed_id8()),
                    format!("{}/{}", paths::CRL, auth.root.hashed_id8()),
                    paths::ECTL.to_string(),
                ] {
                    let g = client.get(format!("{}{path}", svc.url)).send().map_err(|e| e.to_string())?;
                    ensure(g.status() == 200, format!("{path}: {}", g.status()))?;
                }
                Ok(())
            })(),
        ),
    ]
}

/// An enrolment request from an unregistered canonical key (refused with unknownits).
fn f_refusable(auth: &v2x_pki_service::its_station::Authorities) -> Vec<u8> {
    let k = PrivateKey::generate(Curve::NistP256).unwrap();
    station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"nobody",
            key: &k,
        },
        &auth.ea,
        &ec_attrs(),
        Curve::NistP256,
        false,
        TaiTime::now(),
    )
    .unwrap()
    .message
}

#[test]
fn ts_102_941_requirements_all_pass() {
    let f = Fixture::new();
    let mut rows = Vec::new();
    for r in requirements() {
        let result = (r.check)(&f);
        rows.push((r.clause, r.role, r.shall, r.tp, result));
    }
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    for (clause, shall, tp, result) in binding_requirements(&svc, tmp.path()) {
        rows.push((clause, "EA/AA/DC", shall, tp, result));
    }
    svc.stop();
    let passing = rows.iter().filter(|r| r.4.is_ok()).count();
    println!("| clause | role | requirement | TS 103 525-2 TP | result |\n|---|---|---|---|---|");
    for (clause, role, shall, tp, result) in &rows {
        let res = match result {
            Ok(()) => "pass".to_string(),
            Err(e) => format!("FAIL: {e}"),
        };
        println!("| {clause} | {role} | {shall} | {tp} | {res} |");
    }
    println!("\nTS 102 941 conformance: {} applicable, {passing} passing", rows.len());
    let failing: Vec<_> = rows.iter().filter(|r| r.4.is_err()).map(|r| (r.0, r.2)).collect();
    assert!(failing.is_empty(), "failing: {failing:#?}");
}
