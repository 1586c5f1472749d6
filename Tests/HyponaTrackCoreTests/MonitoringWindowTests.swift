import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §6: "Monitoring runs POD 1–14; it extends to POD 21 for craniopharyngioma or when
/// any yellow/red occurred on POD ≥ 10. It ends early on withdrawal."
/// The fixture profile was operated on 2026-03-02, so POD n is 2026-03-(02+n).
struct MonitoringWindowTests {
    let rules = Fixtures.rules.reminders

    func window(_ profile: PatientProfile = Fixtures.profile(), alertPODs: [Int] = [],
                withdrawal: String? = nil) -> MonitoringWindow {
        MonitoringWindow(profile: profile, rules: rules, alertPODs: alertPODs, withdrawalDate: withdrawal.map(Fixtures.date))
    }

    func pods(_ w: MonitoringWindow, _ profile: PatientProfile = Fixtures.profile()) -> ClosedRange<Int> {
        profile.pod(at: w.first)...profile.pod(at: w.last)
    }

    @Test func monitoringRunsFromPodOneToPodFourteenByDefault() {
        let w = window()
        #expect(w.first == Fixtures.date("2026-03-03"))
        #expect(w.last == Fixtures.date("2026-03-16"))
        #expect(pods(w) == 1...14)
        #expect(!w.extended)
        #expect(!w.withdrawn)
    }

    @Test func theSurgeryDayAndTheDayAfterPodFourteenAreNotMonitored() {
        let w = window()
        #expect(!w.contains(Fixtures.date("2026-03-02")))    // POD 0
        #expect(w.contains(Fixtures.date("2026-03-03")))     // POD 1
        #expect(w.contains(Fixtures.date("2026-03-16")))     // POD 14
        #expect(!w.contains(Fixtures.date("2026-03-17")))    // POD 15
    }

    @Test func craniopharyngiomaExtendsMonitoringToPodTwentyOne() {
        let profile = Fixtures.profile { $0.histology = "craniopharyngioma" }
        let w = window(profile)
        #expect(w.extended)
        #expect(pods(w, profile) == 1...21)
        #expect(w.contains(Fixtures.date("2026-03-23")))
        #expect(!w.contains(Fixtures.date("2026-03-24")))
    }

    @Test func otherHistologiesAndAnUnknownHistologyDoNotExtend() {
        for histology in ["cushing", "macroadenoma", "rathke_cleft_cyst", "other", nil] as [String?] {
            let w = window(Fixtures.profile { $0.histology = histology })
            #expect(!w.extended, "\(histology ?? "nil")")
            #expect(pods(w) == 1...14)
        }
    }

    @Test func anAlertOnPodTenOrLaterExtendsMonitoringToPodTwentyOne() {
        for pod in [10, 12, 14] {
            let w = window(alertPODs: [pod])
            #expect(w.extended, "alert on POD \(pod)")
            #expect(pods(w) == 1...21)
        }
    }

    @Test func anAlertOnPodNineDoesNotExtendMonitoring() {
        let w = window(alertPODs: [3, 7, 9])
        #expect(!w.extended)
        #expect(pods(w) == 1...14)
    }

    @Test func anAlertAfterPodFourteenKeepsTheWindowExtended() {
        // An extended patient's later alert is also "a yellow/red on POD ≥ 10" (e.g. after a
        // re-evaluation removed the POD 10–14 alerts).
        let w = window(alertPODs: [16])
        #expect(w.extended)
        #expect(pods(w) == 1...21)
    }

    @Test func anAlertBeforeTheConfiguredExtensionPodNeverExtends() {
        var r = rules
        r.extendWhenAlertFromPOD = 17
        for pod in [10, 14, 15, 16] {
            #expect(!MonitoringWindow(profile: Fixtures.profile(), rules: r, alertPODs: [pod]).extended, "POD \(pod)")
        }
        #expect(MonitoringWindow(profile: Fixtures.profile(), rules: r, alertPODs: [17]).extended)
    }

    @Test func theExtensionFollowsTheConfiguredPods() {
        var r = rules
        r.extendWhenAlertFromPOD = 8
        r.extendedToPOD = 28
        let w = MonitoringWindow(profile: Fixtures.profile(), rules: r, alertPODs: [8])
        #expect(pods(w) == 1...28)
    }

    @Test func withdrawalEndsMonitoringTheDayBefore() {
        let w = window(withdrawal: "2026-03-10")
        #expect(w.withdrawn)
        #expect(w.last == Fixtures.date("2026-03-09"))
        #expect(w.contains(Fixtures.date("2026-03-09")))
        #expect(!w.contains(Fixtures.date("2026-03-10")))
        #expect(!w.contains(Fixtures.date("2026-03-12")))
    }

    @Test func withdrawalAlsoEndsAnExtendedWindowEarly() {
        let profile = Fixtures.profile { $0.histology = "craniopharyngioma" }
        let w = window(profile, alertPODs: [11], withdrawal: "2026-03-20")
        #expect(w.extended)
        #expect(pods(w, profile) == 1...17)
    }

    @Test func withdrawalAfterTheEndLeavesTheWindowAsItWas() {
        let w = window(withdrawal: "2026-04-30")
        #expect(w.withdrawn)
        #expect(w.last == Fixtures.date("2026-03-16"))
    }

    @Test func withdrawalBeforeMonitoringBeganLeavesNoMonitoredDay() {
        let w = window(withdrawal: "2026-03-02")
        #expect(w.last < w.first)
        for pod in -1...22 { #expect(!w.contains(Fixtures.profile().date(ofPOD: pod))) }
    }
}
