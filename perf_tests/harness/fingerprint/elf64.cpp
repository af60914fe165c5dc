#include "harness/fingerprint/elf64.h"

#include <stdexcept>
#include <string>

namespace gpuperf::fingerprint {
namespace {

// ELF64 layout (System V gABI): header and entry sizes, and the offsets of the fields read here.
constexpr std::size_t kElfHeaderBytes = 64;
constexpr std::size_t kSectionHeaderBytes = 64;
constexpr std::size_t kSymbolBytes = 24;
constexpr std::uint16_t kShnXindex = 0xffff;  // e_shstrndx escape: the real index is in section 0's sh_link
// The first word of a fatbinary, which wraps cubins and PTX (nvcc -fatbin output; FATBIN_MAGIC in NVIDIA's
// fatbinary.h, which the toolkit does not ship).
constexpr std::uint32_t kFatbinMagic = 0xba55ed50u;

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("cubin: " + what); }

// `width` bytes at `offset`, little-endian. The caller has checked that they lie inside `bytes`.
std::uint64_t le(std::string_view bytes, std::size_t offset, int width) {
  std::uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
  }
  return value;
}

// Whether [offset, offset + size) lies inside a buffer of `total` bytes, without overflowing.
bool fits(std::uint64_t offset, std::uint64_t size, std::uint64_t total) {
  return offset <= total && size <= total - offset;
}

std::string range(std::uint64_t offset, std::uint64_t size) {
  return "bytes [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " + std::to_string(size) + ")";
}

struct RawSection {
  std::uint32_t name_offset = 0;  // into the section-name string table
  std::uint32_t type = 0;
  std::uint64_t offset = 0;  // in the image [bytes]
  std::uint64_t size = 0;    // [bytes]
  std::uint32_t link = 0;
  std::uint64_t entry_size = 0;  // [bytes]
};

RawSection raw_section(std::string_view image, std::uint64_t header_offset) {
  RawSection s;
  s.name_offset = static_cast<std::uint32_t>(le(image, header_offset + 0, 4));
  s.type = static_cast<std::uint32_t>(le(image, header_offset + 4, 4));
  s.offset = le(image, header_offset + 24, 8);
  s.size = le(image, header_offset + 32, 8);
  s.link = static_cast<std::uint32_t>(le(image, header_offset + 40, 4));
  s.entry_size = le(image, header_offset + 56, 8);
  return s;
}

// The NUL-terminated string at `offset` of a string table; `what` names the string in messages.
std::string_view string_at(std::string_view table, std::uint64_t offset, const std::string& what) {
  if (offset >= table.size()) {
    fail(what + ": name offset " + std::to_string(offset) + " is outside its " + std::to_string(table.size()) +
         "-byte string table");
  }
  const std::size_t end = table.find('\0', offset);
  if (end == std::string_view::npos) fail(what + ": name is not NUL-terminated inside its string table");
  return table.substr(offset, end - offset);
}

void check_identity(std::string_view image) {
  if (image.size() >= 4 && le(image, 0, 4) == kFatbinMagic) {
    fail("this is a fatbinary, not a cubin: pass one of the ELF images it holds");
  }
  if (image.size() < 4 || image.substr(0, 4) != std::string_view("\x7f" "ELF", 4)) {
    fail("not an ELF image (no \\x7fELF magic in the first 4 of " + std::to_string(image.size()) + " bytes)");
  }
  if (image.size() < kElfHeaderBytes) {
    fail("truncated: " + std::to_string(image.size()) + " bytes, shorter than the 64-byte ELF64 header");
  }
  if (image[4] != 2) fail("not a 64-bit ELF image (EI_CLASS " + std::to_string(int(image[4])) + ", expected 2)");
  if (image[5] != 1) fail("not little-endian (EI_DATA " + std::to_string(int(image[5])) + ", expected 1)");
}

// The program header table is not read, but an executable cubin ends with it (after the section
// headers): checking that it fits is what tells a buffer cut just before its end from a whole one.
void check_program_headers(std::string_view image) {
  const std::uint64_t table = le(image, 0x20, 8);  // e_phoff
  const std::uint64_t entry_size = le(image, 0x36, 2);
  const std::uint64_t count = le(image, 0x38, 2);
  if (count == 0) return;
  if (entry_size == 0 || !fits(table, count * entry_size, image.size())) {
    fail("truncated: " + std::to_string(count) + " program headers of " + std::to_string(entry_size) +
         " bytes at byte " + std::to_string(table) + " do not fit in the " + std::to_string(image.size()) +
         "-byte buffer");
  }
}

std::vector<RawSection> raw_sections(std::string_view image) {
  const std::uint64_t table = le(image, 0x28, 8);  // e_shoff
  const std::uint64_t entry_size = le(image, 0x3a, 2);
  std::uint64_t count = le(image, 0x3c, 2);
  if (table == 0) fail("no section header table (e_shoff is 0)");
  if (entry_size < kSectionHeaderBytes) {
    fail("section header entries of " + std::to_string(entry_size) + " bytes, expected at least 64");
  }
  if (!fits(table, entry_size, image.size())) {
    fail("truncated: the section header table at " + range(table, entry_size) + " is outside the " +
         std::to_string(image.size()) + "-byte buffer");
  }
  if (count == 0) count = raw_section(image, table).size;  // more than 0xff00 sections: gABI extended numbering
  if (count > (image.size() - table) / entry_size) {
    fail("truncated: " + std::to_string(count) + " section headers at byte " + std::to_string(table) +
         " do not fit in the " + std::to_string(image.size()) + "-byte buffer");
  }
  std::vector<RawSection> sections;
  sections.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) sections.push_back(raw_section(image, table + i * entry_size));
  return sections;
}

std::string_view section_bytes(std::string_view image, const RawSection& s, const std::string& what) {
  if (s.type == kShtNobits || s.type == 0) return {};
  if (!fits(s.offset, s.size, image.size())) {
    fail(what + " at " + range(s.offset, s.size) + " is outside the " + std::to_string(image.size()) +
         "-byte buffer (truncated?)");
  }
  return image.substr(s.offset, s.size);
}

std::vector<ElfSymbol> read_symbols(const std::vector<ElfSection>& sections, const std::vector<RawSection>& raw) {
  std::vector<ElfSymbol> symbols;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (raw[i].type != kShtSymtab) continue;
    const std::string what = "symbol table " + std::string(sections[i].name);
    if (raw[i].entry_size != kSymbolBytes) {
      fail(what + ": entries of " + std::to_string(raw[i].entry_size) + " bytes, expected 24");
    }
    if (raw[i].link >= sections.size() || raw[raw[i].link].type != kShtStrtab) {
      fail(what + ": its string table (section " + std::to_string(raw[i].link) + ") is not a string table");
    }
    const std::string_view table = sections[i].data;
    const std::string_view names = sections[raw[i].link].data;
    for (std::size_t at = 0; at + kSymbolBytes <= table.size(); at += kSymbolBytes) {
      ElfSymbol symbol;
      symbol.name = string_at(names, le(table, at, 4), what + " entry " + std::to_string(at / kSymbolBytes));
      symbol.type = static_cast<unsigned char>(table[at + 4]) & 0xfu;
      symbol.other = static_cast<unsigned char>(table[at + 5]);
      symbols.push_back(symbol);
    }
    break;  // an ELF image has at most one .symtab
  }
  return symbols;
}

}  // namespace

ElfImage read_elf64(std::string_view image) {
  check_identity(image);
  ElfImage elf;
  elf.machine = static_cast<std::uint16_t>(le(image, 0x12, 2));
  check_program_headers(image);
  const std::vector<RawSection> raw = raw_sections(image);
  if (raw.empty()) return elf;

  std::uint64_t names_index = le(image, 0x3e, 2);  // e_shstrndx
  if (names_index == kShnXindex) names_index = raw[0].link;
  if (names_index == 0 || names_index >= raw.size() || raw[names_index].type != kShtStrtab) {
    fail("section-name string table index " + std::to_string(names_index) + " is not a string table among " +
         std::to_string(raw.size()) + " sections");
  }
  const std::string_view names =
      section_bytes(image, raw[names_index], "section-name string table (section " + std::to_string(names_index) + ")");

  elf.sections.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string what = "section " + std::to_string(i);
    ElfSection section;
    section.name = string_at(names, raw[i].name_offset, what);
    section.type = raw[i].type;
    section.size = raw[i].size;
    section.data = section_bytes(image, raw[i], what + " (" + std::string(section.name) + ")");
    elf.sections.push_back(section);
  }
  elf.symbols = read_symbols(elf.sections, raw);
  return elf;
}

}  // namespace gpuperf::fingerprint
