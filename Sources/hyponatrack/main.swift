import Foundation
import HyponaTrackCLI

exit(CLI.run(Array(CommandLine.arguments.dropFirst())))
