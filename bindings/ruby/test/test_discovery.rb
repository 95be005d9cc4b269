# frozen_string_literal: true

require_relative "test_helper"
require "English"
require "fileutils"
require "tmpdir"

class TestDiscovery < Minitest::Test
  include CourierTest::Helpers

  def test_the_library_comes_from_courier_library
    assert_equal ENV.fetch("COURIER_LIBRARY"), Courier.library_path
    assert_match(/\A\d+\.\d+\.\d+/, Courier.library_version)
  end

  def test_without_a_library_require_fails_listing_every_place_tried
    Dir.mktmpdir do |empty|
      env = { "COURIER_LIBRARY" => File.join(empty, "libcourier.so.1"), "LD_LIBRARY_PATH" => empty,
              "PKG_CONFIG_PATH" => empty, "PKG_CONFIG_LIBDIR" => empty }
      output, status = CourierTest.run_ruby(<<~RUBY, env: env)
        begin
          require "courier"
        rescue LoadError => e
          puts e.class, e.message
        end
      RUBY
      assert status.success?, output
      assert_includes output, "Courier::LibraryNotFoundError"
      ["COURIER_LIBRARY=#{empty}/libcourier.so.1", "the bundled copy", "through the system loader", "pkg-config courier",
       "scripts/build-libcourier.sh"].each { |part| assert_includes output, part }
    end
  end

  # The environment of a process that finds the library only where a test puts it.
  def isolated(folder)
    { "COURIER_LIBRARY" => nil, "LD_LIBRARY_PATH" => folder, "PKG_CONFIG_PATH" => folder, "PKG_CONFIG_LIBDIR" => folder }
  end

  def library
    File.realpath(ENV.fetch("COURIER_LIBRARY"))
  end

  def test_a_copy_bundled_in_the_gem_is_found_without_courier_library
    Dir.mktmpdir do |gem|
      FileUtils.cp_r(File.expand_path("../lib", __dir__), gem)
      FileUtils.mkdir_p(File.join(gem, "vendor"))
      FileUtils.ln_s(library, File.join(gem, "vendor", "libcourier.so.1"))
      reader, writer = IO.pipe
      pid = Process.spawn(isolated(gem), RbConfig.ruby, "-w", "-I", File.join(gem, "lib"), "-e",
                          'require "courier"; puts Courier.library_path', out: writer, err: writer)
      writer.close
      output = reader.read
      Process.wait(pid)
      assert $CHILD_STATUS.success?, output
      assert_equal File.join(gem, "vendor", "libcourier.so.1"), output.strip
    end
  end

  def test_the_system_loader_finds_the_library_on_its_search_path
    Dir.mktmpdir do |folder|
      FileUtils.ln_s(library, File.join(folder, "libcourier.so.1"))
      output, status = CourierTest.run_ruby('require "courier"; puts Courier.library_path', env: isolated(folder))
      assert status.success?, output
      assert_equal "libcourier.so.1", output.strip
    end
  end

  def test_pkg_config_names_the_library_when_nothing_before_it_does
    Dir.mktmpdir do |folder|
      empty = File.join(folder, "empty")
      libdir = File.join(folder, "lib")
      FileUtils.mkdir_p([empty, libdir])
      FileUtils.ln_s(library, File.join(libdir, "libcourier.so.1"))
      File.write(File.join(folder, "courier.pc"), <<~PC)
        libdir=#{libdir}
        Name: courier
        Description: Courier's C library
        Version: 0.2.0
        Libs: -L${libdir} -lcourier
      PC
      env = isolated(empty).merge("PKG_CONFIG_PATH" => folder, "PKG_CONFIG_LIBDIR" => folder)
      probe, = CourierTest.run_ruby('require "ffi"; FFI::DynamicLibrary.open("libcourier.so.1", 1); puts "loads"', env: env)
      skip "libcourier.so.1 is installed where the system loader finds it" if probe.include?("loads")
      output, status = CourierTest.run_ruby('require "courier"; puts Courier.library_path', env: env)
      assert status.success?, output
      assert_equal File.join(libdir, "libcourier.so.1"), output.strip
    end
  end

  def test_a_file_that_is_not_a_library_is_reported_with_the_loaders_reason
    Dir.mktmpdir do |folder|
      fake = File.join(folder, "libcourier.so.1")
      File.write(fake, "not a shared object")
      env = { "COURIER_LIBRARY" => fake, "LD_LIBRARY_PATH" => folder, "PKG_CONFIG_PATH" => folder, "PKG_CONFIG_LIBDIR" => folder }
      output, status = CourierTest.run_ruby('begin; require "courier"; rescue LoadError => e; puts e.message; end', env: env)
      assert status.success?, output
      assert_match(/COURIER_LIBRARY=#{Regexp.escape(fake)}: .*(ELF|too short|invalid)/, output)
    end
  end
end
