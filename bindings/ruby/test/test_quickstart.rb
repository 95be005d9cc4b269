# frozen_string_literal: true

# The Ruby README's setup (the first ```sh block under "## Install", as the Swift tests'
# ReadmeTies.wholeBlockRunners expects), run as written from the repository's root with a free
# port in place of 8080.
require_relative "test_helper"
require "socket"

class TestQuickstart < Minitest::Test
  README = File.expand_path("../README.md", __dir__)

  def self.install_block
    section = File.read(README).split("\n## Install\n", 2).fetch(1).split("\n## ", 2).first
    block = section[/```sh\n(.*?)```/m, 1]
    raise "the Install section of bindings/ruby/README.md has no ```sh block" unless block

    block
  end

  def free_port
    server = TCPServer.new("127.0.0.1", 0)
    server.addr[1]
  ensure
    server&.close
  end

  def test_the_install_block_runs_as_written
    script = self.class.install_block
    assert_includes script, "8080"
    script = script.gsub("8080", free_port.to_s)
    # As a user runs it: no library chosen, and the build script building in .build/debug.
    env = ENV.to_h.merge("COURIER_LIBRARY" => nil, "COURIER_BUILD_DIR" => nil)
    reader, writer = IO.pipe
    pid = Process.spawn(env, "bash", "-euo", "pipefail", "-c", script, chdir: CourierTest::REPO,
                                                                        out: writer, err: writer, pgroup: true)
    writer.close
    output = +""
    collector = Thread.new { output << reader.read }
    _, status = Timeout.timeout(600) { Process.wait2(pid) }
    # A block that failed before its `kill $!` leaves the server holding the output pipe open.
    stop_group(pid)
    collector.join(30)
    assert status.success?, output
    assert_match(/^200$/, output)
  ensure
    stop_group(pid) if pid
    reader&.close
  end

  def stop_group(pid)
    Process.kill("TERM", -pid)
  rescue Errno::ESRCH, Errno::EPERM
    nil
  end
end
