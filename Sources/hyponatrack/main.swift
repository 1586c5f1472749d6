import Foundation
import HyponaTrackKit

exit(CLI.run(Array(CommandLine.arguments.dropFirst())))
