import CCurl
import CCurlShims

/// The message of one SMTP transfer, handed to libcurl piece by piece through its read
/// callback on the performing thread; passed to C unretained because it outlives the call.
final class SMTPUpload {
    private let message: [UInt8]
    private var offset = 0

    init(_ message: [UInt8]) {
        self.message = message
    }

    /// Copies the next bytes into `buffer`; 0 at the end of the message.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let count = min(capacity, message.count - offset)
        guard count > 0 else { return 0 }
        message.withUnsafeBytes { bytes in
            buffer.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// CURLOPT_READFUNCTION: "Your function must then return the actual number of bytes that
    /// it stored in that memory area. Returning 0 will signal end-of-file to the library and
    /// cause it to stop the current transfer." (https://curl.se/libcurl/c/CURLOPT_READFUNCTION.html)
    static let read: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let upload = Unmanaged<SMTPUpload>.fromOpaque(context).takeUnretainedValue()
        return upload.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
    }
}
