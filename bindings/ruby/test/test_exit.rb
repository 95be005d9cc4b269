# frozen_string_literal: true

require_relative "test_helper"

class TestExit < Minitest::Test
  include CourierTest::Helpers

  def test_exit_with_sends_in_flight_and_unclosed_clients_is_clean
    script = <<~RUBY
      require "courier"
      class Slow
        def on_request(exchange) = exchange.request.headers["X-Slow"] = "1"
        def on_response(_exchange) = nil
      end
      client = Courier::Client.new(base_url: #{server.url.inspect}, interceptors: [Slow.new])
      4.times { Thread.new { loop { client.get("/delay/200") } } }
      Thread.new { Courier::Client.new(base_url: #{server.url.inspect}).get("/delay/5000") }
      sleep 0.5
      puts "leaving"
    RUBY
    output, status = CourierTest.run_ruby(script, timeout: 60)
    assert status.success?, output
    assert_equal "leaving\n", output
  end

  def test_a_collected_unclosed_client_is_freed_without_a_crash
    script = <<~RUBY
      require "courier"
      20.times { Courier::Client.new(base_url: #{server.url.inspect}).get("/get") }
      GC.start
      Courier::Client.new { |c| c.get(#{server["/get"].inspect}) }
      puts Courier::ClientHandle.open_handles.size <= 20
    RUBY
    output, status = CourierTest.run_ruby(script)
    assert status.success?, output
    assert_equal "true\n", output
  end

  def test_an_interrupt_signal_cancels_a_send_on_the_main_thread
    script = <<~RUBY
      require "courier"
      Thread.new { sleep 0.5; Process.kill("INT", Process.pid) }
      begin
        Courier::Client.new { |c| c.get(#{server["/delay/30000"].inspect}) }
      rescue Interrupt
        puts "interrupted"
      end
    RUBY
    output, status = CourierTest.run_ruby(script, timeout: 30)
    assert status.success?, output
    assert_equal "interrupted\n", output
  end

  def test_a_client_used_in_a_forked_child_raises_fork_error_and_the_child_can_make_its_own
    script = <<~RUBY
      require "courier"
      client = Courier::Client.new(base_url: #{server.url.inspect})
      client.get("/get")
      pid = fork do
        begin
          client.get("/get")
          puts "sent from the child"
        rescue Courier::ForkError => e
          puts "ForkError \#{e.code}"
        end
        puts Courier::Client.new(base_url: #{server.url.inspect}) { |own| own.get("/get").status }
      end
      Process.wait(pid)
      puts client.get("/get").status
    RUBY
    output, status = CourierTest.run_ruby(script)
    assert status.success?, output
    assert_equal "ForkError 23\n200\n200\n", output
  end
end
