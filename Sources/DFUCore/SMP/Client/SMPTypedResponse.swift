extension SMPRequest {
    /// The typed answer to this kind of request from what `SMPClientCore` finished it with. A body
    /// that lacks a field the response needs (or has one of the wrong type) is the device's fault:
    /// a remote protocol violation naming the field. Pure, so a driver decodes without deciding.
    public static func response(from result: Result<SMPPacket, SMPClientError>) -> Result<Response, SMPClientError> {
        switch result {
        case .failure(let error):
            return .failure(error)
        case .success(let packet):
            do {
                return .success(try Response(body: packet.body))
            } catch {
                return .failure(.remoteProtocolViolation(.malformedBody(packet.header, reason: error.description)))
            }
        }
    }
}
