import Foundation
import SQLite
import Testing

@Suite struct ValueRoundTripTests {
    @Test func everyStorageClassRoundTripsThroughPositionalBinding() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/values.sqlite")
            try db.execute("CREATE TABLE v(i INTEGER, r REAL, t TEXT, b BLOB, n)")
            let text = "Zoë · Ελληνικά · 日本語 · 💧 · \u{0}after-nul"
            let blob: [UInt8] = [0, 1, 2, 0, 255, 0]
            try db.execute("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [Int64.max, 0.1, text, blob, nil])
            try db.execute("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [Int64.min, -1.5e300, "", [UInt8](), nil])

            let rows = try db.query("SELECT i, r, t, b, n, typeof(b) AS bt, length(CAST(t AS BLOB)) AS tl FROM v ORDER BY rowid")
            #expect(rows.count == 2)
            #expect(try rows[0].int64("i") == Int64.max)
            #expect(try rows[0].double("r") == 0.1)
            #expect(try rows[0].string("t") == text)
            #expect(try rows[0].int("tl") == text.utf8.count)
            #expect(try rows[0].blob("b") == blob)
            #expect(try rows[0].optionalString("n") == nil)
            #expect(rows[0]["n"] == .null)

            #expect(try rows[1].int64(0) == Int64.min)
            #expect(try rows[1].double(1) == -1.5e300)
            // Empty text and empty blob stay empty values, distinct from NULL.
            #expect(rows[1]["t"] == .text(""))
            #expect(try rows[1].blob("b") == [])
            #expect(try rows[1].string("bt") == "blob")
        }
    }

    @Test func namedParametersBindWithOrWithoutPrefix() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/named.sqlite")
            try db.execute("CREATE TABLE p(study_id TEXT, pod INTEGER, sodium REAL, ok INTEGER, raw BLOB)")
            try db.execute("INSERT INTO p VALUES (:study_id, :pod, @sodium, $ok, :raw)",
                           named: ["study_id": "HT-001", ":pod": 3, "sodium": 134.5, "ok": true, "raw": Data([9, 0, 9])])
            let row = try #require(try db.queryOne("SELECT * FROM p WHERE study_id = :id", named: ["id": "HT-001"]))
            #expect(try row.string("STUDY_ID") == "HT-001")  // column lookup is case-insensitive
            #expect(try row.int("pod") == 3)
            #expect(try row.double("sodium") == 134.5)
            #expect(try row.bool("ok"))
            #expect(try row.get("raw", as: Data.self) == Data([9, 0, 9]))
            #expect(row.columnNames == ["study_id", "pod", "sodium", "ok", "raw"])
        }
    }

    @Test func missingOrExtraNamedArgumentsAreRefused() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/named.sqlite")
            try db.execute("CREATE TABLE p(a, b)")
            let missing = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO p VALUES (:a, :b)", named: ["a": 1])
            }
            #expect(missing?.message.contains(":b") == true)
            #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO p VALUES (:a, :b)", named: ["a": 1, "b": 2, "c": 3])
            }
            #expect(try db.scalar("SELECT count(*) FROM p", as: Int.self) == 0)
        }
    }

    @Test func typedGettersRefuseNullAndOtherStorageClasses() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/types.sqlite")
            let row = try #require(try db.queryOne("SELECT NULL AS n, 'text' AS t, 42 AS i, 2.5 AS r"))
            let nullError = #expect(throws: SQLiteError.self) { try row.string("n") }
            #expect(nullError?.code == SQLiteError.Code.mismatch)
            #expect(nullError?.message.contains("NULL") == true)
            #expect(throws: SQLiteError.self) { try row.int64("t") }
            #expect(throws: SQLiteError.self) { try row.string("i") }
            #expect(throws: SQLiteError.self) { try row.int64("r") }
            let unknown = #expect(throws: SQLiteError.self) { try row.string("nope") }
            #expect(unknown?.code == SQLiteError.Code.range)
            // REAL accepts INTEGER: SQLite may store integral reals as integers.
            #expect(try row.double("i") == 42)
            #expect(try row.optionalInt("n") == nil)
        }
    }

    @Test func scalarReturnsNilForNoRowAndNull() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            #expect(try db.scalar("SELECT value FROM entries WHERE tag = ?", ["none"], as: Int.self) == nil)
            try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["a", nil])
            #expect(try db.scalar("SELECT value FROM entries WHERE tag = ?", ["a"], as: Int.self) == nil)
            #expect(try db.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
        }
    }
}
