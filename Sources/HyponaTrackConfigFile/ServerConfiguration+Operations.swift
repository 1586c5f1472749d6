import Foundation
import HTJSON
import HyponaTrackDomain

extension ServerConfiguration {
    /// `log {level}` and `backup {directory, everyMinutes, keepHourly, keepDaily}`.
    static func parseOperations(_ r: ObjectReader, into config: inout ServerConfiguration,
                                resolve: (String) -> URL) throws(FieldError) {
        if let block = try r.optional("log", .any) {
            let lr = try ObjectReader(block, path: "log")
            if let name = try lr.optional("level", .oneOf(Logger.Level.configurable.map(\.name))) {
                config.log.level = Logger.Level(name: name) ?? .info   // oneOf has checked
            }
            try lr.finish()
        }
        if let block = try r.optional("backup", .any) {
            let br = try ObjectReader(block, path: "backup")
            var backup = Backup(directory: resolve(try br.required("directory", .string(length: 1...4096))))
            backup.everyMinutes = try br.optional("everyMinutes", .integer(Backup.everyMinutesRange)) ?? backup.everyMinutes
            backup.keepHourly = try br.optional("keepHourly", .integer(Backup.keepRange)) ?? backup.keepHourly
            backup.keepDaily = try br.optional("keepDaily", .integer(Backup.keepRange)) ?? backup.keepDaily
            try br.finish()
            config.backup = backup
        }
    }
}
