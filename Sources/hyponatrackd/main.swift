import Foundation
import HyponaTrackServer

// All logic lives in HyponaTrackServer; C callbacks must not be top-level code here (main-actor
// isolation would trap when a library thread calls them).
exit(DaemonMain.run(Array(CommandLine.arguments.dropFirst())))
