#pragma once
// The Markdown of scripts/order_check.sh (DIR/order_check.md) from an OrderTable.

#include <string>

#include "gate/analysis/order_table.h"

namespace gpuperf::gate::analysis {

// One summary line, a table of the ways (how many benchmarks, the median, percentile and largest absolute
// difference), then every benchmark further than kOrderListedBeyondPct in some way beside the checked
// suite's own spread. Percentages with 2 decimals, differences signed.
std::string order_table_markdown(const OrderTable& table);

}  // namespace gpuperf::gate::analysis
