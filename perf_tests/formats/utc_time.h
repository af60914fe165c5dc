#pragma once
// The time now as every file of the project writes it: ISO 8601 in UTC, to the second
// ("2026-11-29T04:55:59Z"), for a baseline's recorded.date and the same-code ledger's since and last.

#include <ctime>
#include <string>

namespace gpuperf::formats {

inline std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace gpuperf::formats
