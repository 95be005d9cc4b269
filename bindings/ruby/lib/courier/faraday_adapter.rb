# frozen_string_literal: true

require "faraday"
require_relative "../courier"

module Courier
  # A Faraday adapter that sends through Courier: `Faraday.new { |f| f.adapter :courier }`.
  #
  # Faraday keeps what it owns (redirects, retries and encoding are its middleware's), so the
  # adapter's clients follow no redirects. Options given to `f.adapter :courier, ...` go to
  # Courier::Client.new (interceptors: and plugins: included, so Courier's chain runs under
  # Faraday's); a connection's SSL verify and proxy settings pick a client of their own, made once
  # and kept for the adapter's life. Courier's transport failures become Faraday's
  # (TimeoutError, SSLError, ConnectionFailed), as every adapter's do.
  class FaradayAdapter < Faraday::Adapter
    # Settings Faraday owns: its middleware follows redirects, and a connection's `ssl` and
    # `proxy` choose verification and proxy, so giving them here would be silently overridden.
    FARADAY_OWNED = %i[follow_redirects verify proxy].freeze

    def initialize(app = nil, opts = {}, &block)
      super
      owned = opts.keys & FARADAY_OWNED
      unless owned.empty?
        raise InvalidRequestError.new("#{owned.join(", ")} of the :courier adapter come from Faraday " \
                                      "(its redirect middleware, the connection's ssl and proxy)", code: 1)
      end
      @clients = {}
      @clients_lock = Mutex.new
    end

    def call(env)
      super
      response = perform(env)
      save_response(env, response.status, response.body, response.headers.to_h, response.reason)
      @app.call(env)
    rescue Courier::TimeoutError => e
      raise Faraday::TimeoutError, e
    rescue Courier::TLSError => e
      raise Faraday::SSLError, e
    rescue Courier::TransportError => e
      raise Faraday::ConnectionFailed, e
    end

    # Frees the clients; a later request makes new ones.
    def close
      clients = @clients_lock.synchronize do
        all = @clients.values
        @clients = {}
        all
      end
      clients.each(&:close)
    end

    private

    def perform(env)
      client = client_for(env)
      options = { headers: env.request_headers.to_a, timeout: timeout(env) }
      options[:body] = env.body.respond_to?(:read) ? env.body.read : env.body.to_s if env.body
      on_data = env.request.on_data
      return client.request(env.method, env.url.to_s, **options) unless on_data

      received = 0
      head = client.stream(env.method, env.url.to_s, **options) do |chunk|
        received += chunk.bytesize
        on_data.call(chunk, received)
      end
      Response.new(status: head.status, headers: head.headers, body: "", url: head.url)
    end

    def timeout(env)
      seconds = request_timeout(:read, env.request) || request_timeout(:open, env.request)
      seconds&.positive? ? seconds : nil
    end

    def client_for(env)
      verify = env.ssl ? env.ssl.verify != false : true
      verify = env.ssl.ca_file if verify && env.ssl&.ca_file
      proxy = env.request.proxy&.uri&.to_s
      key = [verify, proxy]
      @clients_lock.synchronize do
        @clients[key] ||= Courier::Client.new(**@connection_options, follow_redirects: false, verify: verify, proxy: proxy)
      end
    end
  end

  Faraday::Adapter.register_middleware(courier: FaradayAdapter)
end
