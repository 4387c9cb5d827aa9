// Bouncy Castle (bcutil's org.bouncycastle.oer.its) as the independent TS 102 941 codec of the
// interop test (crates/v2x-pki-service/tests/bouncycastle_interop.rs), compiled and run by it.
//
//   java Ts102941Interop check DIR     decode every NAME.KIND.oer in DIR with BC's OER
//                                      definitions, re-encode, compare byte for byte;
//                                      prints "OK NAME DETAIL" or "FAIL NAME REASON"
//   java Ts102941Interop produce DIR   write messages built with BC's own classes
//
// KIND: data (EtsiTs102941Data), ieee (Ieee1609Dot2Data / EtsiTs103097Data), innerec
// (InnerEcRequest), shared (SharedAtRequest), cert (EtsiTs103097Certificate).
//
// An EtsiTs102941Data is checked through the template of its content's own type (InnerAtRequest,
// ToBeSignedCrl, ...): BC's EtsiTs102941DataContent CHOICE template implements only the two
// enrolment alternatives ("TODO not implemented" in its source), so the version octet and the
// CHOICE tag are read here and the rest goes to BC's template of that alternative.
//
// Two of BC 1.72's templates deviate from TS 102 941's ASN.1 (each line says so when it
// matters): PublicKeys.encryptionKey is typed PublicVerificationKey instead of
// PublicEncryptionKey, and Version is one octet (INTEGER (0..255)) also where TS 102 941 leaves
// it unconstrained (ToBeSignedCrl, CtlFormat: a length-prefixed integer, as in the real EU
// ECTL). Those types are also checked with the same BC definitions, corrected in that one
// field (FIXED_* below); the stock template's verdict is printed beside.

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collections;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.oer.Element;
import org.bouncycastle.oer.OERDecoder;
import org.bouncycastle.oer.OEREncoder;
import org.bouncycastle.oer.its.etsi102941.AuthorizationResponseCode;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponse;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponseCode;
import org.bouncycastle.oer.its.etsi102941.EnrolmentResponseCode;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941Data;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.InnerAtResponse;
import org.bouncycastle.oer.its.etsi102941.InnerEcRequest;
import org.bouncycastle.oer.its.etsi102941.InnerEcResponse;
import org.bouncycastle.oer.its.etsi102941.SharedAtRequest;
import org.bouncycastle.oer.its.etsi102941.basetypes.CertificateSubjectAttributes;
import org.bouncycastle.oer.its.etsi102941.basetypes.Version;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.BitmapSsp;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Psid;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PsidSsp;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SequenceOfPsidSsp;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.ServiceSpecificPermissions;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941MessagesCa;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TrustLists;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesAuthorizationValidation;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesCaManagement;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesAuthorization;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesEnrolment;
import org.bouncycastle.oer.its.template.etsi103097.EtsiTs103097Module;
import org.bouncycastle.oer.its.template.ieee1609dot2.IEEE1609dot2;

public class Ts102941Interop {
    static final String[] CHOICES = {
        "enrolmentRequest", "enrolmentResponse", "authorizationRequest", "authorizationResponse",
        "certificateRevocationList", "certificateTrustListTlm", "certificateTrustListRca",
        "authorizationValidationRequest", "authorizationValidationResponse", "caCertificateRequest",
    };

    // BC's definitions with the one deviating field corrected.
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_PUBLIC_KEYS = org.bouncycastle.oer.OERDefinition.seq(
        org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes.PublicVerificationKey.label("verificationKey"),
        org.bouncycastle.oer.OERDefinition.optional(org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes.PublicEncryptionKey.label("encryptionKey"))
    ).typeName("PublicKeys");
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_INNER_AT_REQUEST = org.bouncycastle.oer.OERDefinition.seq(
        FIXED_PUBLIC_KEYS.label("publicKeys"),
        org.bouncycastle.oer.OERDefinition.octets(32).label("hmacKey"),
        EtsiTs102941TypesAuthorization.SharedAtRequest.label("sharedAtRequest"),
        org.bouncycastle.oer.its.template.etsi102941.basetypes.EtsiTs102941BaseTypes.EcSignature.label("ecSignature"),
        org.bouncycastle.oer.OERDefinition.extension()
    ).typeName("InnerAtRequest");
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_INNER_EC_REQUEST = org.bouncycastle.oer.OERDefinition.seq(
        org.bouncycastle.oer.OERDefinition.octets().label("itsId"),
        org.bouncycastle.oer.its.template.etsi102941.basetypes.EtsiTs102941BaseTypes.CertificateFormat.label("certificateFormat"),
        FIXED_PUBLIC_KEYS.label("publicKeys"),
        org.bouncycastle.oer.its.template.etsi102941.basetypes.EtsiTs102941BaseTypes.CertificateSubjectAttributes.label("requestedSubjectAttributes"),
        org.bouncycastle.oer.OERDefinition.extension()
    ).typeName("InnerEcRequest");
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_CA_CERTIFICATE_REQUEST = org.bouncycastle.oer.OERDefinition.seq(
        FIXED_PUBLIC_KEYS.label("publicKeys"),
        org.bouncycastle.oer.its.template.etsi102941.basetypes.EtsiTs102941BaseTypes.CertificateSubjectAttributes.label("requestedSubjectAttributes"),
        org.bouncycastle.oer.OERDefinition.extension()
    ).typeName("CaCertificateRequest");
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_TO_BE_SIGNED_CRL = org.bouncycastle.oer.OERDefinition.seq(
        org.bouncycastle.oer.OERDefinition.integer().label("version"),
        org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes.Time32.label("thisUpdate"),
        org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes.Time32.label("nextUpdate"),
        EtsiTs102941TrustLists.SequenceOfCrlEntry.label("entries"),
        org.bouncycastle.oer.OERDefinition.extension()
    ).typeName("ToBeSignedCrl");
    static final org.bouncycastle.oer.OERDefinition.Builder FIXED_CTL_FORMAT = org.bouncycastle.oer.OERDefinition.seq(
        org.bouncycastle.oer.OERDefinition.integer().label("version"),
        org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes.Time32.label("nextUpdate"),
        org.bouncycastle.oer.OERDefinition.bool().label("isFullCtl"),
        org.bouncycastle.oer.OERDefinition.integer(0, 255).label("ctlSequence"),
        EtsiTs102941TrustLists.SequenceOfCtlCommand.label("ctlCommands"),
        org.bouncycastle.oer.OERDefinition.extension()
    ).typeName("CtlFormat");

    /** The corrected definition of alternative n, or null when BC's stock one is right. */
    static Element fixedAlternative(int n) {
        switch (n) {
            case 2: return FIXED_INNER_AT_REQUEST.build();
            case 4: return FIXED_TO_BE_SIGNED_CRL.build();
            case 5: case 6: return FIXED_CTL_FORMAT.build();
            case 9: return FIXED_CA_CERTIFICATE_REQUEST.build();
            default: return null;
        }
    }

    /** Decodes with e and re-encodes: null when byte-exact, else what went wrong. */
    static String roundTrip(byte[] bytes, Element e) {
        try {
            ASN1Encodable v = OERDecoder.decode(bytes, e);
            byte[] again = OEREncoder.toByteArray(v, e);
            return Arrays.equals(again, bytes) ? null : "re-encoded differently (" + again.length + " vs " + bytes.length + " bytes)";
        } catch (Exception ex) {
            return ex.toString();
        }
    }

    /** BC's template of each EtsiTs102941DataContent alternative, by CHOICE index. */
    static Element alternative(int n) {
        switch (n) {
            case 0: return EtsiTs102941TypesEnrolment.InnerEcRequestSignedForPop.build();
            case 1: return EtsiTs102941TypesEnrolment.InnerEcResponse.build();
            case 2: return EtsiTs102941TypesAuthorization.InnerAtRequest.build();
            case 3: return EtsiTs102941TypesAuthorization.InnerAtResponse.build();
            case 4: return EtsiTs102941TrustLists.ToBeSignedCrl.build();
            case 5: return EtsiTs102941TrustLists.ToBeSignedTlmCtl.build();
            case 6: return EtsiTs102941TrustLists.ToBeSignedRcaCtl.build();
            case 7: return EtsiTs102941TypesAuthorizationValidation.AuthorizationValidationRequest.build();
            case 8: return EtsiTs102941TypesAuthorizationValidation.AuthorizationValidationResponse.build();
            case 9: return EtsiTs102941TypesCaManagement.CaCertificateRequest.build();
            default: throw new IllegalArgumentException("content alternative " + n);
        }
    }

    /** BC's typed view of alternative n: one field read from it. */
    static String typed(int n, ASN1Encodable v) {
        switch (n) {
            case 0: return "protocolVersion " + Ieee1609Dot2Data.getInstance(v).getProtocolVersion().getValue();
            case 1: return "responseCode " + InnerEcResponse.getInstance(v).getResponseCode().getValue();
            case 2: return "hmacKey " + org.bouncycastle.oer.its.etsi102941.InnerAtRequest.getInstance(v).getHmacKey().getOctets().length + " octets";
            case 3: return "responseCode " + InnerAtResponse.getInstance(v).getResponseCode().getValue();
            case 4: return "entries " + org.bouncycastle.oer.its.etsi102941.ToBeSignedCrl.getInstance(v).getEntries().getCrlEntries().size();
            case 5: return "ctlCommands " + org.bouncycastle.oer.its.etsi102941.ToBeSignedTlmCtl.getInstance(v).getCtlCommands().getCtlCommands().size();
            case 6: return "ctlCommands " + org.bouncycastle.oer.its.etsi102941.ToBeSignedRcaCtl.getInstance(v).getCtlCommands().getCtlCommands().size();
            case 7: return "keyTag " + org.bouncycastle.oer.its.etsi102941.AuthorizationValidationRequest.getInstance(v).getSharedAtRequest().getKeyTag().getOctets().length + " octets";
            case 8: return "responseCode " + AuthorizationValidationResponse.getInstance(v).getResponseCode().getValue();
            case 9: return "publicKeys " + (org.bouncycastle.oer.its.etsi102941.CaCertificateRequest.getInstance(v).getPublicKeys() != null);
            default: return "";
        }
    }

    static Element element(String kind) {
        switch (kind) {
            case "data": return EtsiTs102941MessagesCa.EtsiTs102941Data.build();
            case "ieee": return IEEE1609dot2.Ieee1609Dot2Data.build();
            case "innerec": return EtsiTs102941TypesEnrolment.InnerEcRequest.build();
            case "shared": return EtsiTs102941TypesAuthorization.SharedAtRequest.build();
            case "cert": return EtsiTs103097Module.EtsiTs103097Certificate.build();
            default: throw new IllegalArgumentException("kind " + kind);
        }
    }

    static String detail(String kind, ASN1Encodable value) {
        // The typed view too: BC's classes must accept what its decoder produced.
        switch (kind) {
            case "data": {
                EtsiTs102941Data d = EtsiTs102941Data.getInstance(value);
                int c = d.getContent().getChoice();
                return "version " + d.getVersion().getVersion() + " " + (c < CHOICES.length ? CHOICES[c] : "choice " + c);
            }
            case "ieee": return "protocolVersion " + Ieee1609Dot2Data.getInstance(value).getProtocolVersion().getValue();
            case "innerec": return "itsId " + InnerEcRequest.getInstance(value).getItsId().getOctets().length + " octets";
            case "shared": return "keyTag " + SharedAtRequest.getInstance(value).getKeyTag().getOctets().length + " octets";
            default: return "";
        }
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[1]);
        if (args[0].equals("check")) {
            File[] files = dir.listFiles();
            Arrays.sort(files);
            for (File f : files) {
                String[] parts = f.getName().split("\\.");
                if (parts.length != 3 || !parts[2].equals("oer")) continue;
                byte[] bytes = Files.readAllBytes(f.toPath());
                try {
                    if (parts[1].equals("data")) {
                        // version v1 (one octet), then the CHOICE tag of a root alternative.
                        if (bytes.length < 2 || bytes[0] != 1 || (bytes[1] & 0xc0) != 0x80) {
                            System.out.println("FAIL " + parts[0] + " not version 1 with a context tag");
                            continue;
                        }
                        int n = bytes[1] & 0x3f;
                        byte[] content = Arrays.copyOfRange(bytes, 2, bytes.length);
                        String stock = roundTrip(content, alternative(n));
                        Element fixed = fixedAlternative(n);
                        String verdict = fixed == null ? stock : roundTrip(content, fixed);
                        String d;
                        try {
                            d = typed(n, OERDecoder.decode(content, alternative(n)));
                        } catch (Exception ex) {
                            d = "(BC's typed view: " + ex.getClass().getSimpleName() + ")";
                        }
                        String note = fixed == null ? "" : stock == null ? "; stock template decodes too" : "; stock template FAILS: " + stock;
                        System.out.println((verdict == null ? "OK " : "FAIL ") + parts[0] + " version 1 " + CHOICES[n] + " " + d
                            + (verdict == null ? "" : " " + verdict) + note);
                        continue;
                    }
                    if (parts[1].equals("innerec")) {
                        String stock = roundTrip(bytes, EtsiTs102941TypesEnrolment.InnerEcRequest.build());
                        String verdict = roundTrip(bytes, FIXED_INNER_EC_REQUEST.build());
                        System.out.println((verdict == null ? "OK " : "FAIL ") + parts[0] + " InnerEcRequest"
                            + (verdict == null ? "" : " " + verdict) + (stock == null ? "; stock template decodes too" : "; stock template FAILS: " + stock));
                        continue;
                    }
                    Element e = element(parts[1]);
                    ASN1Encodable v = OERDecoder.decode(bytes, e);
                    String d = detail(parts[1], v);
                    byte[] again = OEREncoder.toByteArray(v, e);
                    if (Arrays.equals(again, bytes)) {
                        System.out.println("OK " + parts[0] + " " + d);
                    } else {
                        System.out.println("FAIL " + parts[0] + " re-encoded differently (" + again.length + " vs " + bytes.length + " bytes)");
                    }
                } catch (Exception ex) {
                    System.out.println("FAIL " + parts[0] + " " + ex);
                }
            }
        } else if (args[0].equals("produce")) {
            dir.mkdirs();
            byte[] h1 = new byte[16], h2 = new byte[16], h3 = new byte[16];
            Arrays.fill(h1, (byte) 0x11);
            Arrays.fill(h2, (byte) 0x22);
            Arrays.fill(h3, (byte) 0x33);
            write(dir, "bc-enrolment-response", new EtsiTs102941DataContent(EtsiTs102941DataContent.enrolmentResponse,
                new InnerEcResponse.Builder().setRequestHash(h1).setResponseCode(EnrolmentResponseCode.deniedrequest).createInnerEcResponse()));
            write(dir, "bc-authorization-response", new EtsiTs102941DataContent(EtsiTs102941DataContent.authorizationResponse,
                new InnerAtResponse.Builder().setRequestHash(h2).setResponseCode(AuthorizationResponseCode.its_aa_outofsyncrequest).createInnerAtResponse()));
            PsidSsp cam = new PsidSsp(new Psid(36), ServiceSpecificPermissions.bitmapSsp(new BitmapSsp(new byte[] {1, (byte) 0xff, (byte) 0xfc})));
            CertificateSubjectAttributes attrs = new CertificateSubjectAttributes(null, null, null, null,
                new SequenceOfPsidSsp(Collections.singletonList(cam)), null);
            write(dir, "bc-validation-response", new EtsiTs102941DataContent(EtsiTs102941DataContent.authorizationValidationResponse,
                new AuthorizationValidationResponse.Builder().setRequestHash(h3).setResponseCode(AuthorizationValidationResponseCode.ok)
                    .setConfirmedSubjectAttributes(attrs).createAuthorizationValidationResponse()));
            System.out.println("produced 3");
        }
    }

    static void write(File dir, String name, EtsiTs102941DataContent content) throws Exception {
        EtsiTs102941Data data = new EtsiTs102941Data(new Version(1), content);
        Files.write(new File(dir, name + ".data.oer").toPath(), OEREncoder.toByteArray(data, EtsiTs102941MessagesCa.EtsiTs102941Data.build()));
    }
}
