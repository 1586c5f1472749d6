/// A patient's partial update of one day (docs/product.md, `PUT /v1/me/days/{date}` merge rules):
/// a scalar present with a value sets it, present with null clears it, absent leaves it;
/// `vomitingEpisodes` is the day's total; `emergencySymptoms` only grows; list items are upserted
/// by their client `id`, so a retried request never duplicates.
public struct DayPatch: Sendable, Equatable {
    public enum Change<T: Sendable & Equatable>: Sendable, Equatable {
        case keep
        case clear
        case set(T)

        func apply(to current: T?) -> T? {
            switch self {
            case .keep: return current
            case .clear: return nil
            case .set(let v): return v
            }
        }
    }

    public var weightMorningKg: Change<Double> = .keep
    public var weightEveningKg: Change<Double> = .keep
    public var fluidIntakeMl: Change<Double> = .keep
    public var urineSG: Change<Double> = .keep
    public var vomitingEpisodes: Change<Int> = .keep
    public var steps: Change<Int> = .keep
    public var hrvSdnnMs: Change<Double> = .keep
    public var sleepMinutes: Change<Int> = .keep
    public var restingHeartRate: Change<Int> = .keep
    public var emergencySymptoms: Set<String> = []
    public var symptoms: [SymptomEntry] = []
    public var reactionTests: [ReactionTest] = []
    public var tappingTests: [TappingTest] = []
    public var desmopressinDoses: [DesmopressinDose] = []

    public init() {}

    /// The merged day. Items whose id is in `blockedIds` (deleted by staff) are not brought back.
    public func apply(to day: DailyEntry, blockedIds: Set<String> = []) -> DailyEntry {
        var d = day
        d.weightMorningKg = weightMorningKg.apply(to: d.weightMorningKg)
        d.weightEveningKg = weightEveningKg.apply(to: d.weightEveningKg)
        d.fluidIntakeMl = fluidIntakeMl.apply(to: d.fluidIntakeMl)
        d.urineSG = urineSG.apply(to: d.urineSG)
        d.vomitingEpisodes = vomitingEpisodes.apply(to: d.vomitingEpisodes)
        d.steps = steps.apply(to: d.steps)
        d.hrvSdnnMs = hrvSdnnMs.apply(to: d.hrvSdnnMs)
        d.sleepMinutes = sleepMinutes.apply(to: d.sleepMinutes)
        d.restingHeartRate = restingHeartRate.apply(to: d.restingHeartRate)
        d.emergencySymptoms.formUnion(emergencySymptoms)
        d.symptoms = DayPatch.upsert(d.symptoms, symptoms, blocked: blockedIds)
        d.reactionTests = DayPatch.upsert(d.reactionTests, reactionTests, blocked: blockedIds)
        d.tappingTests = DayPatch.upsert(d.tappingTests, tappingTests, blocked: blockedIds)
        d.desmopressinDoses = DayPatch.upsert(d.desmopressinDoses, desmopressinDoses, blocked: blockedIds)
        return d
    }

    /// Replaces the item with the same id in place (the first, should `existing` hold one twice)
    /// or appends; later incoming items with an id seen earlier in the patch replace that one.
    /// Keyed by id, so a patch of n items onto m costs O(n + m), not O(n · m).
    static func upsert<T: DayItem>(_ existing: [T], _ incoming: [T], blocked: Set<String>) -> [T] {
        guard !incoming.isEmpty else { return existing }
        var result = existing
        var position = DayPatch.firstPositions(existing)
        for item in incoming where !blocked.contains(item.id) {
            let key = item.id
            if let i = position[key] {
                result[i] = item
            } else {
                position[key] = result.count
                result.append(item)
            }
        }
        return result
    }

    /// Id → position of its first item. (`@inlinable`: the audit in the server module calls it
    /// too, and specialized there it needs no runtime generics.)
    @inlinable
    public static func firstPositions<T: DayItem>(_ items: [T]) -> [String: Int] {
        var position = [String: Int](minimumCapacity: items.count)
        for i in items.indices where position[items[i].id] == nil { position[items[i].id] = i }
        return position
    }
}
