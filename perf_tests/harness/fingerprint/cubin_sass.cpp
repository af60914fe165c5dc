#include "harness/fingerprint/cubin_sass.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "formats/fnv1a.h"
#include "harness/fingerprint/elf64.h"

namespace gpuperf::fingerprint {
namespace {

// st_other bit of a __global__ function's symbol (cuda-gdb, cuda-tdep.c: STO_CUDA_ENTRY); device
// functions that -rdc keeps in sections of their own lack it.
constexpr unsigned char kStoCudaEntry = 0x10;
constexpr std::string_view kTextPrefix = ".text.";

// .nv.info records: a format byte, an attribute byte, then for EIFMT_SVAL a 16-bit size and that many
// bytes, for the other formats a 16-bit value. The module-wide .nv.info holds {symbol index, value} SVAL
// records per function. The codes are undocumented; these are the values open-source cubin tools publish
// (EIATTR_REGCOUNT 0x2f, EIATTR_FRAME_SIZE 0x11), checked against ptxas -v for sm_90, nvcc 13.0, on 9
// kernels: registers (8 to 72) and "bytes stack frame" (0; 256 for a dynamically indexed local array;
// 1584 for a kernel that spills).
constexpr unsigned char kEifmtSval = 0x04;
constexpr unsigned char kEifmtMax = 0x04;  // EIFMT_NVAL 1, _BVAL 2, _HVAL 3, _SVAL 4
constexpr unsigned char kEiattrFrameSize = 0x11;
constexpr unsigned char kEiattrRegcount = 0x2f;

std::uint32_t le32(std::string_view bytes, std::size_t offset) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
  }
  return value;
}

// Per function symbol index, what the module-wide .nv.info says: {symbol, value} records.
struct ModuleInfo {
  std::map<std::uint32_t, std::uint32_t> registers;
  std::map<std::uint32_t, std::uint32_t> frame_bytes;
};

ModuleInfo read_module_info(const ElfImage& elf) {
  ModuleInfo info;
  for (const ElfSection& section : elf.sections) {
    if (section.type != kShtCudaInfo || section.name != ".nv.info") continue;
    const std::string_view d = section.data;
    std::size_t at = 0;
    while (at + 4 <= d.size()) {
      const auto format = static_cast<unsigned char>(d[at]);
      const auto attribute = static_cast<unsigned char>(d[at + 1]);
      if (format == 0 || format > kEifmtMax) break;  // unknown: its length is unknown too
      if (format != kEifmtSval) {
        at += 4;
        continue;
      }
      const std::size_t size = static_cast<unsigned char>(d[at + 2]) | (static_cast<unsigned char>(d[at + 3]) << 8);
      if (size > d.size() - at - 4) break;  // runs past the section
      if (size == 8 && (attribute == kEiattrRegcount || attribute == kEiattrFrameSize)) {
        auto& values = attribute == kEiattrRegcount ? info.registers : info.frame_bytes;
        values[le32(d, at + 4)] = le32(d, at + 8);
      }
      at += 4 + size;
    }
  }
  return info;
}

// Caller -> callees, symbol indices, from .nv.callgraph: {caller, callee} pairs of 32-bit words. Pairs whose
// caller is 0 are markers (callee 0xffffffff, 0xfffffffe, ...), not calls; indices out of range are skipped.
std::multimap<std::uint32_t, std::uint32_t> read_call_graph(const ElfImage& elf) {
  std::multimap<std::uint32_t, std::uint32_t> calls;
  for (const ElfSection& section : elf.sections) {
    if (section.type != kShtCudaCallgraph) continue;
    for (std::size_t at = 0; at + 8 <= section.data.size(); at += 8) {
      const std::uint32_t caller = le32(section.data, at);
      const std::uint32_t callee = le32(section.data, at + 4);
      if (caller != 0 && caller < elf.symbols.size() && callee != 0 && callee < elf.symbols.size()) {
        calls.emplace(caller, callee);
      }
    }
  }
  return calls;
}

// Names of the functions reachable from `root` that have a section of their own, sorted, root excluded.
std::set<std::string_view> reachable_callees(const ElfImage& elf, std::uint32_t root,
                                             const std::multimap<std::uint32_t, std::uint32_t>& calls,
                                             const std::map<std::string_view, std::size_t>& text_of) {
  std::set<std::uint32_t> seen{root};
  std::vector<std::uint32_t> pending{root};
  std::set<std::string_view> names;
  while (!pending.empty()) {
    const std::uint32_t caller = pending.back();
    pending.pop_back();
    const auto [first, last] = calls.equal_range(caller);
    for (auto it = first; it != last; ++it) {
      if (!seen.insert(it->second).second) continue;
      pending.push_back(it->second);
      const std::string_view name = elf.symbols[it->second].name;
      if (name != elf.symbols[root].name && text_of.count(name) != 0) names.insert(name);
    }
  }
  return names;
}

}  // namespace

std::vector<CubinKernel> cubin_kernels(std::string_view cubin) {
  const ElfImage elf = read_elf64(cubin);
  if (elf.machine != kEmCuda) {
    throw std::invalid_argument("cubin: an ELF image for machine " + std::to_string(elf.machine) +
                                ", not a cubin (e_machine 190, EM_CUDA)");
  }
  std::map<std::string_view, std::size_t> text_of;  // function name -> index of .text.<name>
  for (std::size_t i = 0; i < elf.sections.size(); ++i) {
    const std::string_view name = elf.sections[i].name;
    if (name.size() > kTextPrefix.size() && name.substr(0, kTextPrefix.size()) == kTextPrefix) {
      text_of.emplace(name.substr(kTextPrefix.size()), i);
    }
  }
  const ModuleInfo info = read_module_info(elf);
  const auto calls = read_call_graph(elf);

  std::vector<std::pair<std::size_t, CubinKernel>> found;  // (section index, kernel)
  for (std::uint32_t s = 0; s < elf.symbols.size(); ++s) {
    const ElfSymbol& symbol = elf.symbols[s];
    if (symbol.type != kSttFunc || (symbol.other & kStoCudaEntry) == 0) continue;
    const auto text = text_of.find(symbol.name);
    if (text == text_of.end()) continue;
    const std::string_view code = elf.sections[text->second].data;

    CubinKernel kernel;
    kernel.mangled_name = std::string(symbol.name);
    kernel.code_size_bytes = code.size();
    std::uint64_t hash = formats::fnv1a64(code);
    for (const std::string_view callee : reachable_callees(elf, s, calls, text_of)) {
      hash = formats::fnv1a64(std::string_view("\0", 1), formats::fnv1a64(callee, hash));
      hash = formats::fnv1a64(elf.sections[text_of.at(callee)].data, hash);
      kernel.callees.emplace_back(callee);
    }
    kernel.sass_hash = formats::hex16(hash);
    if (const auto r = info.registers.find(s); r != info.registers.end()) {
      kernel.registers_per_thread = static_cast<int>(r->second);
    }
    if (const auto f = info.frame_bytes.find(s); f != info.frame_bytes.end()) kernel.stack_frame_bytes = f->second;
    found.emplace_back(text->second, std::move(kernel));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<CubinKernel> kernels;
  kernels.reserve(found.size());
  for (auto& [section, kernel] : found) kernels.push_back(std::move(kernel));
  return kernels;
}

}  // namespace gpuperf::fingerprint
