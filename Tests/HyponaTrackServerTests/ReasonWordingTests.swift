import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Reasons in clinical words (docs/product.md, third round, C): every reason code reads as its
/// measured quantity in its unit against the threshold it crossed, the level a word in the page's
/// language, sodium always as sodium — a deficit shown as "sodium_low 11" was read as a sodium.
@Suite struct ReasonWordingTests {
    static let rules = MapperFixture.shipped
    static let en = ReasonWording(.en, rules: rules)
    static let de = ReasonWording(.de, rules: rules)

    static func reason(_ code: ReasonCode, _ level: Level, _ value: Double, _ threshold: Double?) -> StoredReason {
        StoredReason(code: code.rawValue, level: level, value: value, threshold: threshold)
    }

    @Test func aLowSodiumReadsAsTheSodiumAndTheSodiumItFiresAtNeverAsTheDeficit() {
        // Na 129 against the standard red deficit 11 (140 − 11 = 129).
        let r = Self.reason(.sodiumLow, .red, 11, 11)
        #expect(Self.en.sentence(r) == "Sodium 129 mmol/L (red at ≤ 129)")
        #expect(Self.de.sentence(r) == "Natrium 129 mmol/l (Rot bei ≤ 129)")
        // A scaled red deficit of 9.9 fires at Na ≤ 130.1: every whole sodium at or below 130.
        #expect(Self.en.sentence(Self.reason(.sodiumLow, .red, 10, 9.9)) == "Sodium 130 mmol/L (red at ≤ 130)")
        // Yellow deficit 4.32 (f = 0.72): Na ≤ 135.68 reads "≤ 135" (docs/clinical-rules.md §3's table).
        #expect(Self.en.sentence(Self.reason(.sodiumLow, .yellow, 5, 4.32)) == "Sodium 135 mmol/L (yellow at ≤ 135)")
        // A lab value with a decimal that rounding would put on the wrong side gets its decimal back.
        #expect(Self.en.sentence(Self.reason(.sodiumLow, .red, 140 - 129.6, 140 - 129.8))
                == "Sodium 129.6 mmol/L (red at ≤ 129.8)")
    }

    @Test func aThresholdIsRoundedSoTheStatementHoldsForEveryReportableValue() {
        // The high-risk urine SG support threshold 1.0172 (f = 0.72): "from 1.018", not "1.017".
        #expect(Self.en.sentence(Self.reason(.urineSGSupport, .yellow, 1.021, 1.0172)) == "Urine SG 1.021 (supports from 1.018)")
        #expect(Self.de.sentence(Self.reason(.urineSGSupport, .info, 1.021, 1.0172)) == "Urin-SG 1,021 (unterstützt ab 1,018)")
        #expect(Self.en.sentence(Self.reason(.weightGainPercent, .yellow, 2.375, 1.08))
                == "Weight +2.4 % above baseline (yellow from +1.1 %)")
        #expect(Self.de.sentence(Self.reason(.weightGainPercent, .yellow, 2.375, 1.08))
                == "Gewicht +2,4 % über dem Ausgangsgewicht (Gelb ab +1,1 %)")
        // Equal-looking or wrong-sided at one decimal: both get another.
        #expect(Self.en.sentence(Self.reason(.weightGainPercent, .yellow, 1.02, 1.01))
                == "Weight +1.02 % above baseline (yellow from +1.01 %)")
        #expect(Self.en.sentence(Self.reason(.weightGainPercent, .yellow, 1.08, 1.05))
                == "Weight +1.08 % above baseline (yellow from +1.05 %)")
        // Equal because they are equal: no extra decimal.
        #expect(Self.en.sentence(Self.reason(.symptomScore, .yellow, 10, 10)) == "Symptom score 10 (yellow from 10)")
        // A scaled score threshold of 8.64 reads "from 9": no whole score between 8.64 and 9.
        #expect(Self.en.sentence(Self.reason(.symptomScore, .yellow, 9, 8.64)) == "Symptom score 9 (yellow from 9)")
    }

    @Test func roundedPairsReadTrueForEveryComparisonAndPrecision() {
        // Exhaustive over a grid: the shown value satisfies the shown threshold as the real value
        // satisfied the real one, and looks equal to it only when it is shown as it is.
        let comparisons: [(ClinicalPair.Comparison, (Double, Double) -> Bool)] = [
            (.atLeast, { $0 >= $1 }), (.atMost, { $0 <= $1 }), (.below, { $0 < $1 }), (.above, { $0 > $1 }),
        ]
        for (comparison, fires) in comparisons {
            for decimals in 0...3 {
                for i in 0..<400 {
                    let threshold = 1 + Double(i) * 0.0137
                    for step in [-0.031, -0.0049, -0.0001, 0, 0.0001, 0.0049, 0.031] {
                        let value = threshold + step
                        guard fires(value, threshold) else { continue }
                        let p = ClinicalPair(value: value, threshold: threshold, decimals: decimals, comparison: comparison)
                        #expect(fires(p.value, p.threshold) || (comparison == .atLeast || comparison == .atMost) && p.value == p.threshold,
                                "\(comparison) \(value) \(threshold) at \(decimals) → \(p)")
                        if abs(p.value - p.threshold) < 1e-12 {
                            #expect(abs(p.value - value) < 1e-9, "a value rounded onto its threshold: \(value) \(threshold) → \(p)")
                        }
                    }
                }
            }
        }
    }

    /// One fired reason of every code, as the engine reports it.
    static let everyCode: [StoredReason] = [
        reason(.emergencySymptom, .red, 1, 1), reason(.confusion, .red, 1, 1), reason(.sodiumProfound, .red, 124, 125),
        reason(.sodiumFallAcute, .red, 9, 8), reason(.sodiumSymptomatic, .red, 131, 133), reason(.vomiting, .red, 2, 2),
        reason(.multipleYellow, .red, 4, 3), reason(.sodiumLow, .yellow, 7, 6), reason(.sodiumFall, .yellow, 6, 5),
        reason(.weightGainPercent, .red, 4.4, 4), reason(.weightGain24h, .yellow, 1.25, 1), reason(.symptomScore, .red, 22, 20),
        reason(.nauseaSevere, .yellow, 3, 3), reason(.headacheSevere, .yellow, 3, 3), reason(.reactionTime, .red, 27.3, 25),
        reason(.fluidExcess, .yellow, 33.3333, 20), reason(.fluidOverLimit2d, .yellow, 1700, 1500), reason(.possibleDI, .yellow, -3.24, -3),
        reason(.urineSGSupport, .yellow, 1.022, 1.02),
    ]

    @Test func everyReasonCodeHasClinicalWordsInBothLanguages() {
        #expect(Set(Self.everyCode.map(\.code)) == Set(ReasonCode.allCases.map(\.rawValue)), "a new code needs its words")
        let englishLevels = ["red", "yellow", "green"]
        for r in Self.everyCode {
            let en = Self.en.sentence(r), de = Self.de.sentence(r)
            for text in [en, de] {
                #expect(!text.contains("_"), "\(r.code) shown as a code: \(text)")
                #expect(text.first?.isUppercase == true || text.first?.isNumber == true, "\(text)")
            }
            if r.code != "urine_sg_support" {
                #expect(en.contains(r.level.rawValue), "\(r.code): the level as a word: \(en)")
                #expect(de.contains(r.level == .red ? "Rot" : "Gelb"), "\(r.code): the German level word: \(de)")
            }
            let words = de.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
            #expect(!words.contains { englishLevels.contains($0) }, "\(r.code): an English level word in German: \(de)")
            #expect(!de.contains("mmol/L") && !de.contains("mL"), "\(r.code): German units: \(de)")
        }
    }

    @Test func theClinicalSentencesOfTheRemainingCodes() {
        let expected: [(StoredReason, String, String)] = [
            (Self.reason(.sodiumProfound, .red, 124, 125), "Sodium 124 mmol/L, profoundly low (red at ≤ 125)",
             "Natrium 124 mmol/l, stark erniedrigt (Rot bei ≤ 125)"),
            (Self.reason(.sodiumSymptomatic, .red, 131, 133), "Sodium 131 mmol/L with nausea, headache or confusion (red below 133 with symptoms)",
             "Natrium 131 mmol/l mit Übelkeit, Kopfschmerzen oder Verwirrtheit (Rot unter 133 mit Symptomen)"),
            (Self.reason(.fluidOverLimit2d, .yellow, 1700, 1500), "Fluid 1,700 mL today, over the limit 2 days running, limit 1,500 mL (yellow)",
             "Trinkmenge 1.700 ml heute, 2 Tage in Folge über dem Limit, Limit 1.500 ml (Gelb)"),
            (Self.reason(.multipleYellow, .red, 4, 3), "4 yellow signs (red from 3)", "4 gelbe Zeichen (Rot ab 3)"),
            (Self.reason(.possibleDI, .yellow, -3.24, -3), "Weight −3.2 % against baseline, possible diabetes insipidus (yellow at ≤ −3.0 %)",
             "Gewicht −3,2 % gegenüber dem Ausgangsgewicht, möglicher Diabetes insipidus (Gelb bei ≤ −3,0 %)"),
            (Self.reason(.vomiting, .red, 1, 1), "Vomited once today (red from 1 with a lab sodium below 135)",
             "Heute einmal erbrochen (Rot ab 1 bei Labornatrium unter 135)"),
            (Self.reason(.reactionTime, .red, 27.3, 25), "Reaction time 27.3 % slower than baseline (red from 25.0 % in two tests)",
             "Reaktionszeit 27,3 % langsamer als der Ausgangswert (Rot ab 25,0 % in zwei Tests)"),
            (StoredReason(code: "no_data_2d", level: .red, value: nil, threshold: nil), "No data for 2 days", "2 Tage ohne Daten"),
        ]
        for (r, en, de) in expected {
            #expect(Self.en.sentence(r) == en)
            #expect(Self.de.sentence(r) == de)
        }
    }
}
