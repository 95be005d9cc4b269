import Foundation
import Testing

@testable import CourierCLI

@Suite("Config directory")
struct ConfigDirectoryTests {
    @Test func courierConfigDirWinsOverXDGAndHome() {
        let directory = ConfigDirectory(environment: [
            "COURIER_CONFIG_DIR": "/etc/c", "XDG_CONFIG_HOME": "/x", "HOME": "/home/ada",
        ])
        #expect(directory.url.path == "/etc/c")
    }

    @Test func xdgConfigHomeComesNextThenHomeDotConfig() {
        #expect(ConfigDirectory(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"]).url.path == "/x/courier")
        #expect(ConfigDirectory(environment: ["HOME": "/home/ada"]).url.path == "/home/ada/.config/courier")
        #expect(
            ConfigDirectory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/ada"]).url.path
                == "/home/ada/.config/courier")
    }

    @Test func aNamedSessionLivesUnderItsHostAndPortAsHTTPieLaysItOut() {
        let directory = ConfigDirectory(url: URL(fileURLWithPath: "/c"))
        #expect(
            directory.sessionFile(named: "me", authority: "127.0.0.1:8080").path == "/c/sessions/127.0.0.1_8080/me.json"
        )
        #expect(directory.configFile.path == "/c/config.json")
    }
}
