import Imports
import Testing

@Suite struct HealthDateTests {
    @Test func exportDateWithOffsetIsParsedExactly() {
        #expect(HealthDate.epochSeconds("2026-11-20 07:10:00 +0100") == 1_795_155_000)
        #expect(HealthDate.epochSeconds("2026-11-20 06:10:00 +0000") == HealthDate.epochSeconds("2026-11-20 07:10:00 +0100"))
        #expect(HealthDate.epochSeconds("2026-11-20 01:10:00 -0500") == HealthDate.epochSeconds("2026-11-20 07:10:00 +0100"))
    }

    @Test func otherDateFormatsAreRefused() {
        for text in ["2026-11-20T07:10:00+01:00", "2026-11-20 07:10 +0100", "2026-11-20 07:10:00 +01:00", "2026-02-30 07:10:00 +0100",
                     "2026-11-20 24:00:00 +0100", "2026-11-20 07:10:00", ""] {
            #expect(HealthDate.epochSeconds(text) == nil, "\(text)")
        }
    }
}
