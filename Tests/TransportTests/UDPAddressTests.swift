import Testing
import Transport
import UDPTransport

@Suite struct UDPAddressTests {
    @Test(arguments: [
        ("127.0.0.1:1337", HostAndPort.Host.ipv4("127.0.0.1"), UInt16(1337)),
        ("0.0.0.0:0", .ipv4("0.0.0.0"), 0),
        ("255.255.255.255:65535", .ipv4("255.255.255.255"), 65535),
        ("[::1]:1337", .ipv6("::1"), 1337),
        ("[fe80::1%eth0]:5683", .ipv6("fe80::1%eth0"), 5683),
        ("[::ffff:192.0.2.1]:9", .ipv6("::ffff:192.0.2.1"), 9),
        ("localhost:1337", .name("localhost"), 1337),
        ("device-7.local.:80", .name("device-7.local."), 80),
    ])
    func acceptsHostAndPort(text: String, host: HostAndPort.Host, port: UInt16) throws {
        let parsed = try HostAndPort(parsing: text)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
        #expect(parsed.description == text)
    }

    @Test(arguments: [
        "", "127.0.0.1", "127.0.0.1:", ":1337", "::1:1337", "::1", "[::1]1337", "[::1", "[::1]:", "[]:1",
        "[1.2.3.4]:1", "[::1%]:1", "[zz::1]:1", "256.1.1.1:1", "1.2.3:1", "010.0.0.1:1", "1.2.3.4.5:1",
        "host:65536", "host:-1", "host:+1", "host:1e3", "host:١٢", "bad_host:1", "-x.com:1", "x-.com:1",
        "a..b:1", ".a:1", "héllo:1", "a b:1",
    ])
    func rejectsWhatIsNotHostAndPort(text: String) {
        #expect(throws: UDPAddressError.self) { try HostAndPort(parsing: text) }
    }

    @Test func malformedTextNamesTheFaultyPart() {
        #expect(throws: UDPAddressError.malformed("::1:1337", reason: "an IPv6 address goes in brackets, [::1]:PORT")) {
            try HostAndPort(parsing: "::1:1337")
        }
        #expect(throws: UDPAddressError.malformed("host:70000", reason: "the port '70000' is not a number from 0 to 65535")) {
            try HostAndPort(parsing: "host:70000")
        }
    }

    @Test func numericHostsNeedNoLookup() throws {
        #expect(try HostAndPort(parsing: "192.0.2.1:7").numericAddress == SocketAddress(ip: .v4(0xC000_0201), port: 7))
        #expect(try HostAndPort(parsing: "[::1]:7").numericAddress == .loopbackV6(port: 7))
        #expect(try HostAndPort(parsing: "localhost:7").numericAddress == nil)
    }

    @Test func formatsAddressesAsTheyAreParsed() throws {
        let addresses: [SocketAddress] = [
            .loopbackV4(port: 1337), .loopbackV6(port: 1337),
            try #require(SocketAddress(numericHost: "2001:db8::8a2e:370:7334", port: 443)),
            try #require(SocketAddress(numericHost: "fe80::1%2", port: 5)),
        ]
        #expect(addresses.map(\.description) == ["127.0.0.1:1337", "[::1]:1337", "[2001:db8::8a2e:370:7334]:443", "[fe80::1%2]:5"])
        for address in addresses {
            #expect(try HostAndPort(parsing: address.description).numericAddress == address)
            #expect(HostAndPort(address).description == address.description)
        }
    }

    @Test func numericHostRefusesNamesAndLeadingZeros() {
        #expect(SocketAddress(numericHost: "localhost", port: 1) == nil)
        #expect(SocketAddress(numericHost: "010.0.0.1", port: 1) == nil)
        #expect(SocketAddress(numericHost: "fe80::1%eth0", port: 1) == nil)  // a scope name needs getaddrinfo
    }
}
