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
