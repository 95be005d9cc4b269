# frozen_string_literal: true

# Shared by every test: the gem from this checkout, minitest, and one loopback server
# (`courier serve --port 0`, from COURIER_CLI or <repo>/.build/debug/courier) started on first use
# and stopped when the run ends. The library comes from COURIER_LIBRARY, as for any user.
$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "minitest/autorun"
require "courier"
require "rbconfig"
require "timeout"

module CourierTest
  REPO = File.expand_path("../../..", __dir__)
  PLUGINS = File.join(REPO, "Examples", "plugins")

  # A `courier serve` process on 127.0.0.1 and a port the system picked.
  class Server
    attr_reader :url, :pid

    def self.cli
      ENV.fetch("COURIER_CLI", File.join(REPO, ".build", "debug", "courier"))
    end

    def initialize
      cli = Server.cli
      raise "#{cli} does not exist: build it with `swift build --product courier` or set COURIER_CLI" unless File.executable?(cli)

      @output, writer = IO.pipe
      @pid = Process.spawn(cli, "serve", "--port", "0", out: writer, err: writer, pgroup: true)
      writer.close
      @url = read_url
      # Keeps reading, so the server never blocks on a full pipe.
      @drain = Thread.new { IO.copy_stream(@output, IO::NULL) rescue nil } # rubocop:disable Style/RescueModifier
    end

    def read_url
      Timeout.timeout(60) do
        @output.each_line do |line|
          found = line[%r{http://127\.0\.0\.1:\d+}]
          return found if found
        end
      end
      raise "courier serve exited without reporting its port"
    end

    def [](path)
      url + path
    end

    def stop
      Process.kill("TERM", pid)
      Timeout.timeout(10) { Process.wait(pid) }
    rescue Timeout::Error
      Process.kill("KILL", pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end

  def self.server
    @server ||= Server.new.tap { |started| Minitest.after_run { started.stop } }
  end

  # The example C plugins, built with make when missing.
  def self.plugins
    %w[hmac_signer.so memory_cache.so].each do |name|
      next if File.exist?(File.join(PLUGINS, name))

      system("make", "-s", "-C", PLUGINS, "c", out: IO::NULL, exception: true)
      break
    end
    PLUGINS
  end

  # Runs `script` in a new Ruby with this gem on its load path; returns [stdout and stderr, Process::Status].
  def self.run_ruby(script, timeout: 60, env: {})
    reader, writer = IO.pipe
    pid = Process.spawn(env, RbConfig.ruby, "-w", "-I", File.expand_path("../lib", __dir__), "-e", script,
                        out: writer, err: writer)
    writer.close
    output = Thread.new { reader.read }
    waiter = Process.detach(pid)
    unless waiter.join(timeout)
      Process.kill("KILL", pid)
      waiter.join
      raise "the Ruby subprocess was still running after #{timeout} s: #{output.value}"
    end
    [output.value, waiter.value]
  ensure
    reader&.close
  end

  # Helpers for test classes: the server, a client on it closed after each test.
  module Helpers
    def server
      CourierTest.server
    end

    def client(**options)
      @clients ||= []
      made = Courier::Client.new(base_url: server.url, timeout: 20, **options)
      @clients << made
      made
    end

    def teardown
      (@clients || []).each(&:close)
      super
    end

    # This process's resident memory, in KiB: what the leak tests compare before and after.
    def rss_kib
      File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
    end

    # This process's open descriptors.
    def descriptors
      Dir.children("/proc/self/fd").size
    end

    # The request's header lines as the server received them, names lowered.
    def received_headers(response)
      response.json["header_list"].each_with_object(Hash.new { |h, k| h[k] = [] }) do |(name, value), found|
        found[name.downcase] << value
      end
    end
  end
end
