// The SASS hash of each kernel, on cubins nvcc built for sm_90 when this test was built (testdata/*.cu),
// and on buffers that are not cubins. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "formats/fnv1a.h"
#include "harness/fingerprint/cubin_sass.h"
#include "harness/fingerprint/elf64.h"

namespace gpuperf::fingerprint {
namespace {

constexpr const char* kReverseTile = "_Z12reverse_tilePfPKf";
constexpr const char* kSumOfProducts = "_Z15sum_of_productsPfPKfS1_i";
constexpr const char* kCallsHelper = "_Z12calls_helperPfi";
constexpr const char* kHelper = "_Z6helperfi";

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

const std::string& two_kernels() {
  static const std::string bytes = read_file(FINGERPRINT_TWO_KERNELS_CUBIN);
  return bytes;
}

const std::string& calls_helper() {
  static const std::string bytes = read_file(FINGERPRINT_CALLS_HELPER_CUBIN);
  return bytes;
}

const CubinKernel& kernel_named(const std::vector<CubinKernel>& kernels, const std::string& name) {
  const auto it =
      std::find_if(kernels.begin(), kernels.end(), [&](const CubinKernel& k) { return k.mangled_name == name; });
  if (it == kernels.end()) throw std::runtime_error("no kernel " + name);
  return *it;
}

// Where the bytes of section `name` start in `cubin`.
std::size_t section_offset(const std::string& cubin, const std::string& name) {
  for (const ElfSection& section : read_elf64(cubin).sections) {
    if (section.name == name) return static_cast<std::size_t>(section.data.data() - cubin.data());
  }
  throw std::runtime_error("no section " + name);
}

// Index of section `name` in `cubin`'s section header table.
std::size_t section_index(const std::string& cubin, const std::string& name) {
  const std::vector<ElfSection> sections = read_elf64(cubin).sections;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].name == name) return i;
  }
  throw std::runtime_error("no section " + name);
}

std::uint64_t get_u64(const std::string& bytes, std::size_t offset) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
  }
  return value;
}

// Where the 64-byte header of section `index` starts in `cubin` (e_shoff + 64 x index).
std::size_t section_header(const std::string& cubin, std::size_t index) {
  return static_cast<std::size_t>(get_u64(cubin, 0x28)) + 64 * index;
}

void put_u64(std::string& bytes, std::size_t offset, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[offset + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
}

// The message of the std::invalid_argument that cubin_kernels(bytes) throws; "" if it throws none.
std::string error_of(const std::string& bytes) {
  try {
    cubin_kernels(bytes);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Fnv1a64, MatchesPublishedVectors) {
  // From the FNV reference test suite (fnv_test.c, FNV1A_64).
  EXPECT_EQ(formats::hex16(formats::fnv1a64("")), "cbf29ce484222325");
  EXPECT_EQ(formats::hex16(formats::fnv1a64("a")), "af63dc4c8601ec8c");
  EXPECT_EQ(formats::hex16(formats::fnv1a64("foobar")), "85944171f73967e8");
  EXPECT_EQ(formats::fnv1a64("bar", formats::fnv1a64("foo")), formats::fnv1a64("foobar")) << "continuing a hash is hashing the concatenation";
}

TEST(CubinSass, FindsBothKernelsByMangledName) {
  const std::vector<CubinKernel> kernels = cubin_kernels(two_kernels());
  ASSERT_EQ(kernels.size(), 2u);
  const CubinKernel& tile = kernel_named(kernels, kReverseTile);
  const CubinKernel& sum = kernel_named(kernels, kSumOfProducts);
  EXPECT_GT(tile.code_size_bytes, 0u);
  EXPECT_GT(sum.code_size_bytes, 0u);
  EXPECT_EQ(tile.code_size_bytes % 16, 0u) << "sm_90 instructions are 16 bytes";
  EXPECT_EQ(tile.sass_hash.size(), 16u);
  EXPECT_NE(tile.sass_hash, sum.sass_hash);
  EXPECT_TRUE(tile.callees.empty() && sum.callees.empty()) << "whole-program code has no callee sections";
}

TEST(CubinSass, HashIsFnv1aOfTheKernelsTextSection) {
  const std::string& cubin = two_kernels();
  const CubinKernel tile = kernel_named(cubin_kernels(cubin), kReverseTile);
  const std::string section = std::string(".text.") + kReverseTile;
  const std::string_view code(cubin.data() + section_offset(cubin, section), tile.code_size_bytes);
  EXPECT_EQ(tile.sass_hash, formats::hex16(formats::fnv1a64(code)));
}

TEST(CubinSass, ReadsRegistersAndStackFrame) {
  const std::vector<CubinKernel> kernels = cubin_kernels(two_kernels());
  const CubinKernel& tile = kernel_named(kernels, kReverseTile);
  const CubinKernel& sum = kernel_named(kernels, kSumOfProducts);
  ASSERT_TRUE(tile.registers_per_thread.has_value());
  ASSERT_TRUE(sum.registers_per_thread.has_value());
  // ptxas -v, nvcc 13.0: 14 and 72 registers; the exact counts move with the compiler, the order does not.
  EXPECT_GT(*tile.registers_per_thread, 0);
  EXPECT_GT(*sum.registers_per_thread, *tile.registers_per_thread) << "32 values live at once";
  EXPECT_EQ(tile.stack_frame_bytes, 0u);
  EXPECT_EQ(sum.stack_frame_bytes, 0u);
}

TEST(CubinSass, HashingTwiceGivesTheSame) {
  const std::string copy = two_kernels();
  const std::vector<CubinKernel> first = cubin_kernels(two_kernels());
  const std::vector<CubinKernel> second = cubin_kernels(copy);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].mangled_name, second[i].mangled_name);
    EXPECT_EQ(first[i].sass_hash, second[i].sass_hash);
  }
}

TEST(CubinSass, OneChangedByteChangesThatKernelsHashOnly) {
  const std::vector<CubinKernel> before = cubin_kernels(two_kernels());
  std::string changed = two_kernels();
  const std::size_t at = section_offset(changed, std::string(".text.") + kSumOfProducts) + 37;
  changed[at] = static_cast<char>(changed[at] ^ 0x01);
  const std::vector<CubinKernel> after = cubin_kernels(changed);
  EXPECT_NE(kernel_named(after, kSumOfProducts).sass_hash, kernel_named(before, kSumOfProducts).sass_hash);
  EXPECT_EQ(kernel_named(after, kSumOfProducts).code_size_bytes, kernel_named(before, kSumOfProducts).code_size_bytes);
  EXPECT_EQ(kernel_named(after, kReverseTile).sass_hash, kernel_named(before, kReverseTile).sass_hash);
}

TEST(CubinSass, RdcKernelHashCoversItsCallee) {
  const CubinKernel kernel = kernel_named(cubin_kernels(calls_helper()), kCallsHelper);
  EXPECT_EQ(kernel.callees, std::vector<std::string>{kHelper});
  EXPECT_EQ(cubin_kernels(calls_helper()).size(), 1u) << "a device function is not a kernel";

  std::string changed = calls_helper();
  const std::size_t at = section_offset(changed, std::string(".text.") + kHelper) + 5;
  changed[at] = static_cast<char>(changed[at] ^ 0x80);
  const CubinKernel after = kernel_named(cubin_kernels(changed), kCallsHelper);
  EXPECT_NE(after.sass_hash, kernel.sass_hash) << "the callee's code changed, the kernel's own section did not";
  EXPECT_EQ(after.code_size_bytes, kernel.code_size_bytes);
}

TEST(CubinSass, RefusesWhatIsNotACubin) {
  EXPECT_NE(error_of("").find("not an ELF image"), std::string::npos);
  EXPECT_NE(error_of("garbage, not a cubin at all, and long enough to hold an ELF header: ................")
                .find("not an ELF image"),
            std::string::npos);
  EXPECT_NE(error_of(std::string("\x50\xed\x55\xba\x01\x00\x10\x00", 8)).find("fatbinary"), std::string::npos);

  std::string other_machine = two_kernels();
  other_machine[0x12] = 62;  // EM_X86_64
  other_machine[0x13] = 0;
  EXPECT_NE(error_of(other_machine).find("EM_CUDA"), std::string::npos);

  std::string thirty_two_bit = two_kernels();
  thirty_two_bit[4] = 1;
  EXPECT_NE(error_of(thirty_two_bit).find("not a 64-bit"), std::string::npos);
}

TEST(CubinSass, RefusesTruncatedCubins) {
  const std::string& cubin = two_kernels();
  EXPECT_NE(error_of(cubin.substr(0, 40)).find("truncated"), std::string::npos) << "shorter than the ELF header";
  EXPECT_NE(error_of(cubin.substr(0, 64)).find("truncated"), std::string::npos) << "the ELF header alone";
  EXPECT_NE(error_of(cubin.substr(0, cubin.size() / 2)).find("truncated"), std::string::npos);
  // nvcc writes the header tables last (section headers, then an executable cubin's program headers):
  // every shorter prefix is refused, and none is read past its end.
  for (std::size_t size = 0; size < cubin.size(); ++size) {
    EXPECT_THROW(cubin_kernels(std::string_view(cubin.data(), size)), std::invalid_argument) << size << " bytes";
  }
}

TEST(CubinSass, RefusesASectionOutsideTheBuffer) {
  std::string corrupt = two_kernels();
  const std::size_t text = section_index(corrupt, std::string(".text.") + kReverseTile);
  put_u64(corrupt, section_header(corrupt, text) + 24, corrupt.size() - 4);  // sh_offset: 4 bytes before the end
  const std::string message = error_of(corrupt);
  EXPECT_NE(message.find("outside the " + std::to_string(corrupt.size()) + "-byte buffer"), std::string::npos)
      << message;
}

TEST(CubinSass, EveryCorruptedHeaderByteGivesKernelsOrInvalidArgument) {
  // Each byte of the ELF header and of the section header table flipped in turn. The result is a list of
  // kernels or std::invalid_argument, never another exception or a crash (nor, under ASan, a read out of
  // bounds); a flipped magic byte is always refused.
  const std::string& cubin = two_kernels();
  std::vector<std::size_t> offsets;
  for (std::size_t at = 0; at < 64; ++at) offsets.push_back(at);
  for (std::size_t at = section_header(cubin, 0); at < cubin.size(); ++at) offsets.push_back(at);
  for (const std::size_t at : offsets) {
    std::string corrupt = cubin;
    corrupt[at] = static_cast<char>(corrupt[at] ^ 0xa5);
    bool refused = false;
    try {
      cubin_kernels(corrupt);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    if (at < 4) {
      EXPECT_TRUE(refused) << "magic byte " << at;
    }
  }
}

}  // namespace
}  // namespace gpuperf::fingerprint
