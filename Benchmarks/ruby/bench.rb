# frozen_string_literal: true

# Sequential keep-alive GETs against the benchmarks' nginx: Courier::Client against Net::HTTP
# (one persistent connection, started once) and Typhoeus (libcurl through Ethon, when installed).
#
#   ruby -I bindings/ruby/lib bench.rb URL [SECONDS]
#
# Every client warms up, then the clients take turns: ROUNDS slices of SECONDS / ROUNDS each
# (SECONDS defaults to 3), and each row reports the median slice in requests per second, so on a
# machine whose load changes each client meets the same conditions. Run it through run.sh.
require "courier"
require "net/http"
require "uri"

URL = ARGV.fetch(0)
SECONDS_TOTAL = Float(ARGV.fetch(1, "3"))
ROUNDS = 5

def rate(send, seconds)
  count = 0
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  deadline = started + seconds
  loop do
    20.times { send.call }
    count += 20
    now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    return count / (now - started) if now >= deadline
  end
end

def interleaved(clients)
  clients.each_value { |send| 200.times { send.call } }
  slices = clients.keys.to_h { |name| [name, []] }
  ROUNDS.times do
    clients.each { |name, send| slices[name] << rate(send, SECONDS_TOTAL / ROUNDS) }
  end
  slices.transform_values { |values| values.sort[values.size / 2] }
end

def check(status)
  raise "unexpected status #{status}" unless status.to_i == 200
end

uri = URI(URL)
courier = Courier::Client.new(timeout: 10)
net_http = Net::HTTP.new(uri.host, uri.port)
net_http.start
clients = {
  "courier (Courier::Client)" => -> { check(courier.get(URL).status) },
  "Net::HTTP (persistent)" => -> { check(net_http.request(Net::HTTP::Get.new(uri)).code) }
}
begin
  require "typhoeus"
  clients["Typhoeus #{Typhoeus::VERSION} (Ethon, libcurl)"] = -> { check(Typhoeus.get(URL).code) }
rescue LoadError
  warn "== Typhoeus is not installed (apt-get install ruby-typhoeus); its row is skipped"
end

results = interleaved(clients)
puts "ruby #{RUBY_VERSION}, courier library #{Courier.library_version} (#{Courier.library_path}), " \
     "#{ROUNDS} rounds of #{SECONDS_TOTAL / ROUNDS} s, median"
puts format("%-45s %12s", "client", "requests/s")
results.each { |name, value| puts format("%-45s %12.0f", name, value) }
courier.close
net_http.finish
