# frozen_string_literal: true

require_relative "test_helper"
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
