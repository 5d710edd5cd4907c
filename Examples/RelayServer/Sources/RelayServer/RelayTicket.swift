import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A login ticket: the proof, signed by the server's secret, that a client
/// may log in as a user until a time, in the manner of Tencent's UserSig (an
/// HMAC-SHA256 over the user ID and the expiry, made by the app's server
/// with a secret the IM server shares).
///
/// The text form is `<expiry>.<mac>`: the expiry in Unix seconds, a dot, and
/// the base64url (no padding) of HMAC-SHA256 over
/// `imcodec-relay-ticket-v1`, a newline, the user ID, a newline and the
/// expiry in decimal, keyed with the secret. A join carries it, as UTF-8,
/// in its `cloudCustomData`; the relay checks it against the join's sender
/// (``RelayConfiguration/Identity/tickets(secret:)``).
public enum RelayTicket {
    /// What checking a ticket found.
    public enum Verdict: Sendable, Hashable {
        /// Signed with the secret for this user, and not expired.
        case valid(expiry: Int64)
        /// Signed with the secret for this user, but its expiry has passed.
        case expired(expiry: Int64)
        /// Not a ticket, or not one for this user signed with this secret.
        case invalid
    }

    /// The longest ticket text that is looked at: the expiry's digits, the
    /// dot and 43 characters of MAC, with room to spare.
    public static let maxLength = 96

    /// Makes a ticket.
    ///
    /// - Parameters:
    ///   - user: The user ID it logs in.
    ///   - expiry: When it stops being valid, in Unix seconds.
    ///   - secret: The server's secret.
    /// - Returns: The ticket's text.
    public static func issue(user: String, expiry: Int64, secret: [UInt8]) -> String {
        "\(expiry)." + base64URL(Array(mac(user: user, expiry: expiry, secret: secret)))
    }

    /// Checks a ticket for a user.
    ///
    /// - Parameters:
    ///   - ticket: The ticket's text.
    ///   - user: The user ID the login names.
    ///   - secret: The server's secret.
    ///   - now: The time in Unix seconds.
    /// - Returns: Whether it is valid, expired, or not a ticket of this
    ///   user's at all. The MAC is compared in constant time.
    public static func verify(_ ticket: String, user: String, secret: [UInt8], now: Int64) -> Verdict {
        guard ticket.utf8.count <= maxLength else { return .invalid }
        let parts = ticket.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let expiry = Int64(parts[0]), expiry >= 0, String(expiry) == parts[0],
            let code = decodeBase64URL(String(parts[1]))
        else { return .invalid }
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                code, authenticating: signed(user: user, expiry: expiry), using: SymmetricKey(data: secret))
        else { return .invalid }
        return expiry > now ? .valid(expiry: expiry) : .expired(expiry: expiry)
    }

    private static func signed(user: String, expiry: Int64) -> [UInt8] {
        Array("imcodec-relay-ticket-v1\n\(user)\n\(expiry)".utf8)
    }

    private static func mac(user: String, expiry: Int64, secret: [UInt8]) -> HMAC<SHA256>.MAC {
        HMAC<SHA256>.authenticationCode(for: signed(user: user, expiry: expiry), using: SymmetricKey(data: secret))
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        String(
            Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_")
                .split(separator: "=").first ?? "")
    }

    private static func decodeBase64URL(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "=") }) else { return nil }
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: standard).map(Array.init) else { return nil }
        // One text per MAC: the unused low bits of the last character must
        // be zero, so no other spelling of the same MAC passes.
        return base64URL(bytes) == text ? bytes : nil
    }
}
