// The HTTP vocabulary (headers, method, status) is one module shared by the server and the
// client; importing this wrapper brings it along.
@_exported import HTTPTypes
