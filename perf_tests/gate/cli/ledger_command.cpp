// ledger: the running count of verdicts on unchanged code.
#include "gate/cli/commands.h"
#include "gate/ledger/ledger_update.h"

namespace gpuperf::gate::cli {

int run_ledger(const Arguments& args, std::ostream& out, std::ostream& err) {
  return update_same_code_ledger(args.required("--ledger"), args.required("--report"), args.value("--markdown"), out,
                                 err);
}

}  // namespace gpuperf::gate::cli
