import Testing
import Crypto
import SQLite
import HTTPClient
import HTTPServer

@Suite struct LibraryLinkTests {
    @Test func sqliteReportsAThreadSafeVersion3Library() {
        #expect(SQLiteLibrary.version.hasPrefix("3."))
        #expect(SQLiteLibrary.isThreadSafe)
    }

    @Test func curlIsTheOpenSSLFlavour() {
        #expect(CurlLibrary.version.split(separator: ".").count == 3)
        #expect(CurlLibrary.sslVersion.hasPrefix("OpenSSL/"))
    }

    @Test func microhttpdReportsItsVersion() {
        #expect(MicroHTTPDLibrary.version.hasPrefix("0.9.") || MicroHTTPDLibrary.version.hasPrefix("1."))
    }

    @Test func sha256OfABCMatchesTheFIPSVector() {
        Crypto.initialize()
        #expect(Crypto.hex(Crypto.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hmacSHA256MatchesRFC4231Case2() {
        let mac = Crypto.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Crypto.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aPreparedKeyGivesTheRFC4231MacsForEveryMessageAndThread() async throws {
        let jefe = try HMACSHA256Key(Array("Jefe".utf8))
        let case1 = try HMACSHA256Key([UInt8](repeating: 0x0b, count: 20))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 {
                        #expect(Crypto.hex(jefe.mac(Array("what do ya want for nothing?".utf8)))
                                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
                        #expect(Crypto.hex(case1.mac(Array("Hi There".utf8)))
                                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
                    }
                }
            }
        }
        #expect(jefe.mac([]) == Crypto.hmacSHA256(key: Array("Jefe".utf8), message: []))
    }

    @Test func randomBytesDifferAndConstantTimeCompareDistinguishes() throws {
        let a = try Crypto.randomBytes(32), b = try Crypto.randomBytes(32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(Crypto.constantTimeEquals(a, a))
        #expect(!Crypto.constantTimeEquals(a, b))
        #expect(!Crypto.constantTimeEquals(a, Array(a.prefix(31))))
    }
}
