# frozen_string_literal: true

require_relative "native_call"
require_relative "client_handle"
require_relative "native_request"
require_relative "client_settings"
require_relative "sender"
require_relative "interceptor_bridge"
require_relative "builtin"
require_relative "plugin"
require_relative "stream_consumer"
require_relative "callback_guard"

module Courier
  # Sends requests through one courier_client: its connections, its chain of interceptors
  # (Ruby objects, Courier's built-ins and C plugins, in the order given) and its defaults.
  # Thread-safe: any number of threads may send through one client at once.
  #
  #   Courier::Client.new(base_url: "http://127.0.0.1:8080") { |client| client.get("/get").status }
  #
  # With a block, the client is closed when the block ends and the block's value is returned.
  class Client
    METHODS = %i[get post put patch delete head options].freeze

    attr_reader :base_url, :interceptors

    # base_url: what relative URLs resolve against (RFC 3986, as courier_request_new_endpoint);
    # headers: fields every request gets unless it sets its own; timeout: seconds for a whole
    # exchange (nil: none); connect_timeout: seconds for connecting; follow_redirects and
    # max_redirects; proxy: "http://user:pass@host:port"; verify: true, false (tests only) or a
    # CA file's path; user_agent; interceptors: Ruby interceptors, Courier::Builtin and
    # Courier::Plugin objects in chain order; plugins: Plugin objects, paths, or [path, config] pairs, appended after.
    def self.new(**options, &block)
      client = super(**options)
      return client unless block

      begin
        yield client
      ensure
        client.close
      end
    end

    def initialize(base_url: nil, headers: nil, timeout: 60, connect_timeout: nil, follow_redirects: true,
                   max_redirects: nil, proxy: nil, verify: true, user_agent: nil, interceptors: [], plugins: [])
      @base_url = base_url && NativeCall.text(base_url, "base_url:")
      unless interceptors.is_a?(Array) && plugins.is_a?(Array)
        raise InvalidRequestError.new("interceptors: and plugins: must be Arrays", code: 1)
      end

      @interceptors = (interceptors + plugins.map { |plugin| Client.plugin_from(plugin) }).freeze
      options = ClientSettings.new(headers: headers, timeout: timeout, connect_timeout: connect_timeout,
                                   follow_redirects: follow_redirects, max_redirects: max_redirects, proxy: proxy,
                                   verify: verify, user_agent: user_agent)
      @handle = ClientHandle.new(NativeCall.fetch_pointer(:courier_client_new, options.struct.pointer), @base_url)
      @plugins = []
      ObjectSpace.define_finalizer(self, ClientHandle.finalizer(@handle))
      begin
        @interceptors.each { |interceptor| add(interceptor) }
      rescue StandardError
        close
        raise
      end
    end

    # A Plugin from plugins:'s entry: a Plugin, a path, or [path, config].
    def self.plugin_from(entry)
      case entry
      when Plugin then entry
      when Array then Plugin.new(entry[0], config: entry[1])
      else Plugin.new(entry)
      end
    end

    METHODS.each do |name|
      define_method(name) { |url, **options| options.empty? ? send_plain(name, url) : request(name, url, **options) }
    end

    # Sends a request and returns its Response whatever its status (see Response#raise_for_status
    # and Courier::Validation). params: query items; headers: fields; one body of json: (any
    # object JSON can encode), form: (pairs), body: (a String, File or Pathname) and multipart:
    # (name => String, File, Pathname or {data:/path:, filename:, content_type:}); timeout: seconds.
    def request(method, url, params: nil, headers: nil, json: nil, form: nil, body: nil, multipart: nil, timeout: nil)
      if params.nil? && headers.nil? && json.nil? && form.nil? && body.nil? && multipart.nil? && timeout.nil?
        return send_plain(method, url)
      end

      send_built(method, url, nil, params: params, headers: headers, json: json, form: form, body: body,
                                   multipart: multipart, timeout: timeout)
    end

    # Sends a request and yields its body chunk by chunk as it arrives, in bounded memory; returns
    # the Response (status, headers; an empty body). A `break` in the block stops the transfer and
    # returns nil from stream; an exception in the block stops it and is raised from stream.
    def stream(method, url, **options, &block)
      raise InvalidRequestError.new("stream needs a block to receive the body", code: 1) unless block

      consumer = StreamConsumer.new(block)
      send_built(method, url, consumer, **options)
    rescue CancelledError
      raise unless consumer&.stopped?

      nil
    end

    # Appends an interceptor (Ruby object, Builtin or Plugin) to the chain; sends under way keep theirs.
    def add(interceptor)
      case interceptor
      when Builtin then interceptor.add_to(@handle.pointer)
      when Plugin then load_plugin(interceptor.path, interceptor.config)
      else InterceptorBridge.add(@handle.pointer, interceptor)
      end
      self
    end

    # Removes the interceptors named `name` (a Ruby interceptor's name, a built-in's kind or
    # name:, a plugin's interceptor) from the chain; sends under way keep theirs. Courier::Error
    # (COURIER_E_NOT_FOUND) when none has that name.
    def remove_interceptor(name)
      text = NativeCall.text(name, "an interceptor's name")
      CallbackGuard.calling_out { NativeCall.invoke(:courier_client_remove_interceptor, @handle.pointer, text) }
      self
    end

    # Loads the C plugin at `path` (with a slash) with its `config` string and appends its
    # interceptors to the chain; returns the LoadedPlugin (name, version, unload).
    def load_plugin(path, config = nil)
      loaded = Plugin.new(path, config: config).load_into(@handle.pointer)
      @plugins << loaded
      loaded
    end

    # Frees the client: sends under way on other threads end with their own outcome, and a send
    # started afterwards raises ClosedError.
    def close
      @plugins.each(&:free)
      @handle.close
    end

    def closed?
      @handle.closed?
    end

    def inspect
      "#<Courier::Client #{base_url || "(no base URL)"}#{closed? ? " closed" : ""}>"
    end

    private

    # Sends a request with only a method and a URL through a courier_request built once and
    # reused (see RequestCache); a URI or a method of another type is built afresh.
    def send_plain(method, url)
      return send_built(method, url, nil) unless url.is_a?(String) && (method.is_a?(Symbol) || method.is_a?(String))

      client_pointer = @handle.pointer
      entry = @handle.requests.acquire(method, url)
      begin
        Sender.send(client_pointer, entry.pointer, entry.info)
      ensure
        @handle.requests.release(entry)
      end
    end

    def send_built(method, url, consumer, **options)
      native_request = NativeRequest.new(method, url, base_url: base_url, **options)
      begin
        Sender.send(@handle.pointer, native_request.pointer, native_request.info, consumer)
      ensure
        native_request.free
      end
    end
  end
end
