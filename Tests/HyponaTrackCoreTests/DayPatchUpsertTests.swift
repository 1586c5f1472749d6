import Testing
@testable import HyponaTrackCore

/// The keyed upsert merges exactly as the search it replaced, and the per-day list cap
/// (`limits.itemsPerList`) sees only lists a merge grows.
@Suite struct DayPatchUpsertTests {
    static let time = Timestamp("2026-03-05T08:00:00+01:00")!

    static func dose(_ id: String, _ mcg: Double) -> DesmopressinDose { DesmopressinDose(id: id, time: time, doseMcg: mcg) }

    /// The merge as it was before it was keyed: a search of the growing result per incoming item.
    static func linearUpsert(_ existing: [DesmopressinDose], _ incoming: [DesmopressinDose], blocked: Set<String>) -> [DesmopressinDose] {
        var result = existing
        for item in incoming where !blocked.contains(item.id) {
            if let i = result.firstIndex(where: { $0.id == item.id }) { result[i] = item } else { result.append(item) }
        }
        return result
    }

    @Test func manyItemsWithRepeatedIdsMergeExactlyAsTheLinearSearchDid() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<50 {
            let existing = (0..<next(40)).map { Self.dose("d\(next(30))", Double($0)) }   // may repeat an id
            let incoming = (0..<next(400)).map { Self.dose("d\(next(60))", Double(1000 + $0)) }
            let blocked: Set<String> = Set((0..<next(5)).map { _ in "d\(next(60))" })
            let keyed = DayPatch.upsert(existing, incoming, blocked: blocked)
            #expect(keyed == Self.linearUpsert(existing, incoming, blocked: blocked), "round \(round)")
        }
    }

    @Test func anIdRepeatedInOnePatchKeepsItsFirstPositionAndTakesTheLastValue() {
        let merged = DayPatch.upsert([Self.dose("a", 1)], [Self.dose("b", 2), Self.dose("a", 3), Self.dose("b", 4), Self.dose("c", 5)],
                                     blocked: [])
        #expect(merged == [Self.dose("a", 3), Self.dose("b", 4), Self.dose("c", 5)])
    }

    @Test func aListGrownPastTheLimitIsNamed() {
        let before = DailyEntry(date: LocalDate("2026-03-05")!, desmopressinDoses: (0..<3).map { Self.dose("d\($0)", 1) })
        var after = before
        after.desmopressinDoses.append(Self.dose("d3", 1))
        #expect(before.listGrown(to: after, pastLimit: 3) == "desmopressinDoses")
        #expect(before.listGrown(to: after, pastLimit: 4) == nil)
    }

    @Test func reSendingStoredIdsAtOrOverTheLimitPasses() {
        let before = DailyEntry(date: LocalDate("2026-03-05")!, desmopressinDoses: (0..<5).map { Self.dose("d\($0)", 1) })
        var after = before
        after.desmopressinDoses[0].doseMcg = 2
        #expect(before.listGrown(to: after, pastLimit: 5) == nil)
        #expect(before.listGrown(to: after, pastLimit: 3) == nil)   // a day stored over a lowered limit can be corrected
    }

    @Test func everyPerDayListCounts() {
        let empty = DailyEntry(date: LocalDate("2026-03-05")!)
        #expect(empty.listCounts.map(\.list) == ["symptoms", "reactionTests", "tappingTests", "desmopressinDoses", "labSodium"])
        var labs = empty
        labs.labSodium = [LabSodium(id: "1", time: Self.time, value: 135), LabSodium(id: "2", time: Self.time, value: 134)]
        #expect(empty.listGrown(to: labs, pastLimit: 1) == "labSodium")
    }
}
