import CourierTestServer
import Foundation
import Testing

/// What the default C library, libCourierC.so (installed as libcourier.so.1), carries: the core
/// and libcurl's transport, on FoundationEssentials. No full Foundation and no ICU among the
/// libraries it loads, no SwiftNIO or AsyncHTTPClient inside; and a C caller asking for the
/// AsyncHTTPClient transport gets an error that says which library to install.
@Suite struct DefaultLibraryTests {
    @Test func itLoadsNoFullFoundationNoICUAndCarriesNoSwiftNIO() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let loaded = try artifacts.require(await ProcessRunner.run(["ldd", artifacts.defaultLibrary.path]))
        for forbidden in [
            "libFoundation.so", "lib_FoundationICU", "libFoundationNetworking", "libFoundationInternationalization",
        ] {
            #expect(!loaded.output.contains(forbidden), "\(forbidden) in:\n\(loaded.output)")
        }
        #expect(loaded.output.contains("libFoundationEssentials.so"), "\(loaded.output)")
        let symbols = try artifacts.require(await ProcessRunner.run(["nm", artifacts.defaultLibrary.path]))
        for module in ["8NIOCore", "15AsyncHTTPClient", "6NIOSSL"] {
            #expect(!symbols.output.contains("$s\(module)"), "\(module) is inside the default library")
        }
        // The variant has them: the check above would see them if they were there.
        let variant = try artifacts.require(await ProcessRunner.run(["nm", artifacts.library.path]))
        #expect(variant.output.contains("$s15AsyncHTTPClient"))
    }

    @Test func askingItForAsyncHTTPClientIsAnErrorNamingTheLibraryToInstall() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let source = artifacts.work.appendingPathComponent("default_library_ahc.c")
        try """
        #include <courier.h>
        #include <stdio.h>
        int main(void)
        {
            courier_client_options options;
            courier_client_options_init(&options);
            options.transport = COURIER_TRANSPORT_ASYNC_HTTP_CLIENT;
            courier_client *client = NULL;
            courier_error *error = NULL;
            courier_code code = courier_client_new(&options, &client, &error);
            printf("%d %s\\n", (int)code, error ? courier_error_message(error) : "");
            courier_error_free(error);
            courier_client_free(client);
            options.transport = COURIER_TRANSPORT_CURL;
            code = courier_client_new(&options, &client, NULL);
            courier_client_free(client);
            return code == COURIER_OK ? 0 : 1;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let directory = try Self.defaultLibraryDirectory(artifacts)
        let link = directory.appendingPathComponent("libcourier.so.1")
        let program = artifacts.work.appendingPathComponent("bin/default_library_ahc")
        _ = try artifacts.require(
            await ProcessRunner.run(
                ["cc"] + CAPIArtifacts.strictC + [
                    "-I\(artifacts.include)", "-o", program.path, source.path, link.path,
                    "-Wl,-rpath,\(directory.path)",
                ]))
        let outcome = try await ProcessRunner.run([program.path], environment: ["LD_LIBRARY_PATH": directory.path])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.hasPrefix("18 "), "COURIER_E_UNSUPPORTED: \(outcome.output)")
        #expect(outcome.output.contains("--with-async-http-client"), "\(outcome.output)")
    }

    /// dlclose leaves both libraries loaded (DF_1_NODELETE): their threads outlive every call,
    /// and Python's cffi closes the library as the interpreter exits, which crashed a thread
    /// still running in it.
    @Test func dlcloseNeverUnloadsTheLibraryWhoseThreadsStillRun() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let source = artifacts.work.appendingPathComponent("dlclose_library.c")
        try """
        #include <courier.h>
        #include <dlfcn.h>
        #include <stdio.h>
        int main(int argc, char **argv)
        {
            if (argc != 2) return 2;
            void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
            if (!library) { printf("dlopen: %s\\n", dlerror()); return 1; }
            courier_code (*client_new)(const courier_client_options *, courier_client **, courier_error **);
            courier_code (*client_free)(courier_client *);
            *(void **)&client_new = dlsym(library, "courier_client_new");
            *(void **)&client_free = dlsym(library, "courier_client_free");
            courier_client *client = NULL;
            if (!client_new || !client_free || client_new(NULL, &client, NULL) != COURIER_OK) return 1;
            client_free(client);
            dlclose(library);
            printf("still loaded after dlclose: %s\\n", dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) ? "yes" : "no");
            return 0;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let program = artifacts.work.appendingPathComponent("bin/dlclose_library")
        _ = try artifacts.require(
            await ProcessRunner.run(
                ["cc"] + CAPIArtifacts.strictC + ["-I\(artifacts.include)", "-o", program.path, source.path, "-ldl"]))
        for library in [artifacts.defaultLibrary, artifacts.library] {
            let dynamic = try artifacts.require(await ProcessRunner.run(["readelf", "-d", library.path]))
            #expect(dynamic.output.contains("NODELETE"), "\(library.lastPathComponent): \(dynamic.output)")
            let outcome = try await ProcessRunner.run([program.path, library.path])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.output == "still loaded after dlclose: yes\n", "\(library.lastPathComponent): \(outcome)")
        }
    }

    /// A program built against the 1.0 header, which ran against the library with every
    /// transport before the split, runs against the default one (natively: valgrind runs it
    /// against the variant in CProgramTests).
    @Test func aProgramBuiltAgainstABI10RunsAgainstTheDefaultLibrary() async throws {
        let artifacts = try await CAPIArtifacts.shared.value
        let program = try await artifacts.compileTest(
            "test_abi_1_0", headers: artifacts.cSources.appendingPathComponent("abi-1.0").path)
        let directory = try Self.defaultLibraryDirectory(artifacts)
        let outcome = try await withTestServer { server in
            try await ProcessRunner.run(
                [program.path, server.baseURL.absoluteString], environment: ["LD_LIBRARY_PATH": directory.path])
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains(" 0 failed"), "\(outcome)")
    }

    /// A directory whose `libcourier.so.1` is the default library, to put first on the load path.
    /// One per test (`name`), since the suite's tests run in parallel.
    private static func defaultLibraryDirectory(_ artifacts: CAPIArtifacts, name: String = #function) throws -> URL {
        let directory = artifacts.work.appendingPathComponent("default-lib-\(name.prefix { $0 != "(" })")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("libcourier.so.1"), withDestinationURL: artifacts.defaultLibrary)
        return directory
    }
}
