import Foundation
import Testing
import HTJSON

/// Page 1's summary and baseline, the alerts' notes, the symptom items and the reviewer's line
/// (docs/product.md, third round, C, "The report"), read back with pdftotext.
extension ReportTests {
    /// `2026-11-14` as the German report writes it, `14.11.2026`.
    static func german(_ iso: String) -> String {
        let p = iso.split(separator: "-").map { Int($0)! }
        return "\(p[2]).\(p[1]).\(p[0])"
    }

    @Test func pageOneOpensWithTheSummaryThenTheBaselineWithEveryKatFactorAndItsPoints() throws {
        let s = try scenario()
        let page1 = try PopplerReport(try s.report("RPT-LONG").body).text(page: 1, layout: true)
        let last = try #require(s.alertIds.last), red = Study.date(7 - ReportScenario.surgeryDaysAgo)
        let lab = Study.date(15 - ReportScenario.surgeryDaysAgo)
        for phrase in ["Summary Current level ", "(POD 7) (alert #\(last))", "Unacknowledged alerts #\(last) ",
                       "First red day \(red) (POD 7)", "Last lab sodium 136 mmol/L, \(lab) 10:00 (POD 15)", "Last contact none",
                       "Baseline Age 50 years", "Sex male", "Histology craniopharyngioma", "Baseline weight 80 kg",
                       "Fluid limit 1500 mL per day", "Desmopressin not prescribed", "Consent not recorded", "Risk class high",
                       "Kat Factor (rule) Value Points", "A Histology craniopharyngioma 3", "A Pituitary stalk deviation on pre-op MRI no 0",
                       "A Risk medications (sum at most 3) none 0", "A Age ≥ 60 50 years 0", "A Sex male 0", "A BMI < 26 kg/m² 27 kg/m² 0",
                       "B Lowest sodium POD 1–2 (< 135: 2, < 139: 1; a fall ≥ 5 from pre- not entered 0 op: at least 1)",
                       "B Intra-operative CSF leak not entered 0", "B Operation time > 180 min not entered 0",
                       "C Post-op nausea not entered 0", "C Diabetes insipidus or desmopressin neither 0", "C New cortisol deficiency no 0"] {
            #expect(page1.contains(phrase), "\(phrase)")
        }
        #expect(page1.range(of: "Summary")!.lowerBound < page1.range(of: "Baseline")!.lowerBound)
        let current = try #require(page1.range(of: "Current level ")).upperBound
        #expect(page1[current...].hasPrefix("Red since") || page1[current...].hasPrefix("Yellow since"), "\(page1[current...].prefix(80))")
    }

    @Test func inGermanTheSummaryAndTheBaselineAreGermanWithGermanDates() throws {
        let s = try scenario()
        let page1 = try PopplerReport(try s.report("RPT-LONG", query: "?lang=de").body).text(page: 1, layout: true)
        let red = ReportTests.german(Study.date(7 - ReportScenario.surgeryDaysAgo)), lab = ReportTests.german(Study.date(15 - ReportScenario.surgeryDaysAgo))
        for phrase in ["Zusammenfassung Aktuelle Stufe ", " seit ", "Unbestätigte Alarme #", "Erster roter Tag \(red) (POD 7)",
                       "Letztes Labornatrium 136 mmol/l, \(lab) 10:00 (POD 15)", "Letzter Kontakt keine",
                       "Ausgangsdaten Alter 50 Jahre", "Geschlecht männlich", "Histologie Kraniopharyngeom", "Trinkmengenlimit 1500 ml pro Tag",
                       "Desmopressin nicht verordnet", "Einwilligung nicht erfasst", "OP-Datum \(ReportTests.german(s.surgeryDate))",
                       "A Histologie Kraniopharyngeom 3", "B Intraoperatives Liquorleck nicht erfasst 0", "C Neuer Kortisolmangel nein 0"] {
            #expect(page1.contains(phrase), "\(phrase)")
        }
        #expect(!page1.contains(s.surgeryDate), "no ISO dates in the German report")
    }

    @Test func alertsCarryTheirAcknowledgementAndResolutionNotes() throws {
        let s = try scenario()
        let text = try PopplerReport(try s.report("RPT-LONG").body).text()
        #expect(text.components(separatedBy: "by ann.nurse Note: called").count - 1 == s.alertIds.count - 1, "\(text.suffix(1500))")
        #expect(text.components(separatedBy: "by night.nurse sodium 134 Note: lab drawn").count - 1 == s.alertIds.count - 1)
        let german = try PopplerReport(try s.report("RPT-LONG", query: "?lang=de").body).text()
        #expect(german.contains("von ann.nurse Notiz: called") && german.contains("von night.nurse Natrium 134 Notiz: lab drawn"))
    }

    @Test func theLastLineOfTheLastPageIsTheReviewersSignatureLine() throws {
        let s = try scenario()
        for (query, line) in [("", "Reviewed by ________________________________ on ________________"),
                              ("?lang=de", "Geprüft von ________________________________ am ________________")] {
            let pdf = try PopplerReport(try s.report("RPT-LONG", query: query).body)
            let pages = try pdf.pageCount
            let lastPage = try pdf.text(page: pages)
            #expect(lastPage.contains(line), "\(lastPage.suffix(300))")
            for page in 1..<pages { #expect(!(try pdf.text(page: page)).contains(line.prefix(11)), "page \(page)") }
            let note = query.isEmpty ? "Each day was evaluated" : "Jeder Tag wurde"
            if let rules = lastPage.range(of: note) { #expect(rules.upperBound < lastPage.range(of: line)!.lowerBound, "after the rules note") }
        }
    }

    @Test func theSymptomTableShowsEachChecksFiveItemsAndVASAndTheDaysVomitingAndEmergencySymptomsInWords() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "SYM-1", surgeryDaysAgo: 4)
        let day = Study.date(-1)
        let body: JSONValue = ["symptoms": [
            ["id": "m1", "time": .string(Study.time(day, "08:05")), "slot": "morning", "nausea": 1, "headache": 2, "fatigue": 3,
             "confusion": 0, "muscleCramps": 1, "vas": 6],
            ["id": "e1", "time": .string(Study.time(day, "19:40")), "slot": "evening", "nausea": 2, "headache": 1, "fatigue": 0,
             "confusion": 1, "muscleCramps": 3, "vas": 4]],
            "vomitingEpisodes": 2, "emergencySymptoms": ["seizure", "collapse"]]
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: body).status == 200)
        let english = try PopplerReport(try ReportScenario.report(d, "SYM-1").body).text(layout: true)
        for phrase in ["Symptoms by day", "N nausea, H headache, F fatigue, C confusion, M muscle cramps",
                       "Date (POD) Check N H F C M VAS Vomiting", "Emergency symptoms",
                       "\(day) (3) morning 08:05 1 2 3 0 1 6 2 collapse, seizure", "evening 19:40 2 1 0 1 3 4"] {
            #expect(english.contains(phrase), "\(phrase)\n\(english)")
        }
        let german = try PopplerReport(try ReportScenario.report(d, "SYM-1", query: "?lang=de").body).text(layout: true)
        for phrase in ["Symptome je Tag", "Ü Übelkeit, K Kopfschmerzen", "Datum (POD) Check Ü K M V Kr VAS Erbrechen",
                       "\(ReportTests.german(day)) (3) morgens 08:05 1 2 3 0 1 6 2 Kollaps, Krampfanfall", "abends 19:40 2 1 0 1 3 4"] {
            #expect(german.contains(phrase), "\(phrase)\n\(german)")
        }
        #expect(try PopplerReport(try ReportScenario.report(d, "SYM-1").body).text().contains("No symptom entries.") == false)
    }
}
