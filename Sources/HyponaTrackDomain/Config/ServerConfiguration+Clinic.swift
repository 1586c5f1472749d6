import HyponaTrackCore

/// What a patient with a yellow light is told about the clinic's call (docs/product.md, W and
/// settled W): a call is promised only when the patient's site has yellow escalation tiers (its
/// own `escalation.sites.CODE.yellow`, else the study's; otherwise nobody hears of the alert, so
/// the patient is asked to call the clinic), and only within `app.clinicHours`.
public enum ClinicCallPromise: Sendable, Equatable {
    /// The clinic calls: today until…, later today, or the next working day (clinic's wall clock).
    case clinicCalls(ClinicHours.Call)
    /// Nobody is told of a yellow alert: the patient calls the clinic.
    case callTheClinic
    /// Tiers are configured but no `app.clinicHours`: the clinic calls, no time is named.
    case unspecified
}

extension ServerConfiguration {
    /// The promise for a yellow light shown at `epochSeconds` to a patient of `site` (nil: the
    /// study's ladder and zone), decided on the clinic's wall clock: `app.clinicHours` are times
    /// in the site's time zone, else `studyTimeZone`.
    public func clinicCall(atEpochSeconds epochSeconds: Double, site: Site?) -> ClinicCallPromise {
        guard !escalation.tiers(for: .yellow, site: site?.code).isEmpty else { return .callTheClinic }
        guard let hours = app.clinicHours, let zone = ZoneRules(identifier: site?.timeZone ?? studyTimeZone) else { return .unspecified }
        let now = zone.timestamp(atEpochSeconds: epochSeconds)
        return .clinicCalls(hours.call(on: now.localDate, at: now.localTime))
    }
}
