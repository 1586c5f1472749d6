import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Route matching: a request path is split once, on its bytes, and matched segment by segment.
@Suite struct PathTemplateTests {
    @Test func placeholdersTakeOneNonEmptySegmentEachAndLiteralsMatchExactly() {
        let template = PathTemplate("/v1/patients/{studyId}/days/{date}")
        #expect(template.match("/v1/patients/HT-1/days/2026-03-09") == ["studyId": "HT-1", "date": "2026-03-09"])
        #expect(template.match("/v1/patients/Zoë-é/days/x") == ["studyId": "Zoë-é", "date": "x"])
        #expect(template.match("/v1/patients//days/2026-03-09") == nil)
        #expect(template.match("/v1/patients/HT-1/days") == nil)
        #expect(template.match("/v1/patients/HT-1/days/2026-03-09/") == nil)
        #expect(template.match("/v1/patient/HT-1/days/2026-03-09") == nil)
        #expect(template.match("") == nil)
    }

    @Test func aTrailingSlashIsItsOwnEmptySegment() {
        #expect(PathTemplate("/console/").match("/console/") == [:])
        #expect(PathTemplate("/console/").match("/console") == nil)
        #expect(PathTemplate("/console").match("/console/") == nil)
    }

    @Test func oneSplitServesEveryTemplate() {
        let path = PathTemplate.Segments("/v1/me/days/2026-03-09")
        #expect(PathTemplate("/v1/me/days/{date}").match(path) == ["date": "2026-03-09"])
        #expect(PathTemplate("/v1/me/today").match(path) == nil)
        #expect(PathTemplate("/v1/me/days").match(path) == nil)
    }
}
