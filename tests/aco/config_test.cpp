// SPDX-License-Identifier: MIT
// The GPU plan on the host: every name parses and prints back, the one table of construction x
// selection x launch is enforced with errors that list what works, "auto" resolves by n, block
// sizes follow Zhou et al.'s Table C3, scatter-gather refuses sizes past its work limit, and the
// CPU backend refuses GPU-only choices instead of ignoring them.
#include <gtest/gtest.h>

#include <string>

#include "aco/config.h"
#include "aco/cpu/ant_system.h"
#include "core/error.h"
#include "io/generator.h"

namespace formica::aco {
namespace {

template <typename Enum>
void round_trip(std::vector<NamedValue> (*names)(), std::optional<Enum> (*parse)(std::string_view),
                std::string_view (*print)(Enum)) {
  for (const NamedValue& n : names()) {
    const auto value = parse(n.name);
    ASSERT_TRUE(value) << n.name;
    EXPECT_EQ(print(*value), n.name);
    EXPECT_FALSE(n.help.empty()) << n.name;
  }
  EXPECT_FALSE(parse("no-such-name"));
}

TEST(Config, EveryNameParsesAndPrintsBack) {
  round_trip<Selection>(selection_names, parse_selection, to_string);
  round_trip<Construction>(construction_names, parse_construction, to_string);
  round_trip<Launch>(launch_names, parse_launch, to_string);
  round_trip<PheromoneUpdate>(pheromone_update_names, parse_pheromone_update, to_string);
  EXPECT_EQ(selection_names().size(), 6u);
  EXPECT_EQ(construction_names().size(), 6u);
  EXPECT_EQ(pheromone_update_names().size(), 6u);
}

std::string error_of(const AntSystemConfig& config, int n = 100, int m = 100) {
  try {
    plan_gpu(config, n, m);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, CombinationTableIsEnforcedAndListed) {
  const std::string table = supported_combinations();
  for (const char* entry : {"warp-per-ant: roulette, compression, stochastic-trial, hybrid, i-roulette (ke-all)",
                            "block-per-ant: roulette, compression, stochastic-trial, hybrid, i-roulette, tile-roulette "
                            "(ke-all or ke-one)",
                            "thread-per-ant: roulette, i-roulette (ke-all)",
                            "stc: roulette, i-roulette, tile-roulette (ke-all or ke-one)",
                            "st-dynamic: roulette, i-roulette, tile-roulette (ke-all or ke-one)"})
    EXPECT_NE(table.find(entry), std::string::npos) << entry << " missing from " << table;
  int accepted = 0;
  for (const auto& c : construction_names())
    for (const auto& s : selection_names())
      for (const auto& l : launch_names()) {
        AntSystemConfig config;
        config.construction = *parse_construction(c.name);
        config.selection = *parse_selection(s.name);
        config.launch = *parse_launch(l.name);
        const bool ok = config.construction == Construction::Auto ||
                        (supports(config.construction, config.selection) && supports(config.construction, config.launch));
        const std::string error = error_of(config);
        if (ok) {
          EXPECT_EQ(error, "") << c.name << " " << s.name << " " << l.name;
          ++accepted;
        } else {
          EXPECT_NE(error.find("(supported: " + table + ")"), std::string::npos) << error;
        }
      }
  EXPECT_EQ(accepted, 6 * 2 + (5 + 6 * 2 + 2 + 3 * 2 + 3 * 2));  // auto takes everything
  AntSystemConfig config;
  config.construction = Construction::Stc;
  config.selection = Selection::StochasticTrial;
  EXPECT_NE(error_of(config).find("--construction stc does not take --selection stochastic-trial"), std::string::npos);
  config.construction = Construction::WarpPerAnt;
  config.selection = Selection::Roulette;
  config.launch = Launch::KeOne;
  EXPECT_NE(error_of(config).find("--construction warp-per-ant cannot be launched as --launch ke-one"),
            std::string::npos);
}

TEST(Config, AutoPicksAConstructionThatTakesTheSelectionAndLaunch) {
  EXPECT_EQ(resolve_construction(Construction::Auto, Selection::Roulette, Launch::KeAll), Construction::WarpPerAnt);
  EXPECT_EQ(resolve_construction(Construction::Auto, Selection::TileRoulette, Launch::KeAll), Construction::BlockPerAnt);
  EXPECT_EQ(resolve_construction(Construction::Auto, Selection::Roulette, Launch::KeOne), Construction::BlockPerAnt);
  for (const auto& s : selection_names())
    for (const auto& l : launch_names()) {
      const Selection selection = *parse_selection(s.name);
      const Launch launch = *parse_launch(l.name);
      const Construction picked = resolve_construction(Construction::Auto, selection, launch);
      EXPECT_TRUE(supports(picked, selection) && supports(picked, launch)) << s.name << " " << l.name;
    }
  EXPECT_EQ(resolve_construction(Construction::Stc, Selection::Roulette, Launch::KeAll), Construction::Stc);
  // The pick does not depend on n: the plans of 3 and 20,000 cities build alike.
  AntSystemConfig config;
  config.selection = Selection::TileRoulette;
  EXPECT_EQ(plan_gpu(config, 3, 3).construction, Construction::BlockPerAnt);
  EXPECT_EQ(plan_gpu(config, 20000, 20000).construction, Construction::BlockPerAnt);
}

TEST(Config, BlockSizesFollowZhouTableC3) {
  // Zhou et al. Table C3: d198 64, lin318 64, pcb442 128, rat783 128, pr1002 256, fl1577 256,
  // pr2392 512, pcb3038 1024, fnl4461 1024.
  const std::pair<int, int> table[] = {{198, 64},   {318, 64},   {442, 128},  {783, 128}, {1002, 256},
                                       {1577, 256}, {2392, 512}, {3038, 1024}, {4461, 1024}};
  for (const auto& [n, threads] : table) {
    EXPECT_EQ(auto_block_size(Construction::Stc, n), threads) << n;
    EXPECT_EQ(auto_block_size(Construction::StDynamic, n), threads) << n;
    EXPECT_EQ(auto_block_size(Construction::BlockPerAnt, n), threads) << n;
  }
  EXPECT_EQ(auto_block_size(Construction::ThreadPerAnt, 1000), 16);  // Cecilia 5.1.4
  EXPECT_EQ(auto_block_size(Construction::WarpPerAnt, 1000), 0);
  // Block per ant keeps at most 32 tiles in its register: 30,000 cities need 938 workers, 1024.
  EXPECT_GE(32 * auto_block_size(Construction::BlockPerAnt, 30000), 30000);
  EXPECT_EQ(auto_block_size(Construction::BlockPerAnt, 30000), 1024);
}

TEST(Config, BlockSizeLimitsAreNamed) {
  AntSystemConfig config;
  config.construction = Construction::BlockPerAnt;
  config.block_size = 64;
  EXPECT_EQ(error_of(config, 2048, 8), "");
  const std::string error = error_of(config, 2049, 8);
  EXPECT_NE(error.find("64 workers hold at most 2048 cities, but n = 2049"), std::string::npos) << error;
  config.block_size = 0;
  EXPECT_EQ(plan_gpu(config, 30000, 8).block_size, 1024);
  EXPECT_NE(error_of(config, 40000, 8).find("1024 workers hold at most 32768 cities"), std::string::npos);
  config.construction = Construction::WarpPerAnt;
  config.block_size = 128;
  EXPECT_NE(error_of(config).find("--block-size applies to"), std::string::npos);
  config.construction = Construction::Stc;
  config.block_size = 16;
  EXPECT_NE(error_of(config).find("at least 32"), std::string::npos);
  config.construction = Construction::ThreadPerAnt;
  EXPECT_EQ(plan_gpu(config, 100, 100).block_size, 16);
  config.block_size = 96;
  EXPECT_THROW(config.validate(), InputError);
}

TEST(Config, ScatterGatherRefusesSizesPastItsWorkLimit) {
  AntSystemConfig config;
  for (auto design : {PheromoneUpdate::ScatterGather, PheromoneUpdate::ScatterGatherTiled,
                      PheromoneUpdate::ScatterGatherReduction}) {
    config.pheromone_update = design;
    EXPECT_EQ(error_of(config, 1002, 1002), "") << to_string(design);  // pr1002 with m = n runs
    const std::string error = error_of(config, 1577, 1577);            // fl1577 does not
    EXPECT_NE(error.find("edge checks per iteration for n = 1577 and m = 1577"), std::string::npos) << error;
    EXPECT_NE(error.find("use atomic, atomic-tiled or symmetrize"), std::string::npos) << error;
  }
  EXPECT_DOUBLE_EQ(scatter_gather_checks(PheromoneUpdate::ScatterGather, 10, 5), 100.0 * 50);
  EXPECT_DOUBLE_EQ(scatter_gather_checks(PheromoneUpdate::ScatterGatherReduction, 10, 5), 55.0 * 50);
  EXPECT_EQ(scatter_gather_checks(PheromoneUpdate::Atomic, 100000, 100000), 0.0);
  config.pheromone_update = PheromoneUpdate::AtomicTiled;
  EXPECT_EQ(error_of(config, 30000, 30000), "");
}

TEST(Config, CpuBackendRefusesGpuOnlyChoices) {
  const Instance instance = io::generate_instance(20, io::InstanceKind::Uniform, 1);
  EXPECT_NO_THROW(AntSystemCpu(instance, AntSystemConfig{}));
  const auto refused = [&](auto set, const std::string& flag) {
    AntSystemConfig config;
    set(config);
    try {
      AntSystemCpu colony(instance, config);
      ADD_FAILURE() << flag << " was accepted by the cpu backend";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cpu backend"), std::string::npos) << e.what();
    }
  };
  refused([](AntSystemConfig& c) { c.construction = Construction::ThreadPerAnt; }, "--construction thread-per-ant");
  refused([](AntSystemConfig& c) { c.construction = Construction::Stc; }, "--construction stc");
  refused([](AntSystemConfig& c) { c.launch = Launch::KeOne; c.construction = Construction::BlockPerAnt; }, "--launch ke-one");
  refused([](AntSystemConfig& c) { c.block_size = 128; }, "--block-size 128");
  refused([](AntSystemConfig& c) { c.pheromone_update = PheromoneUpdate::ScatterGather; },
          "--pheromone-update scatter-gather");
}

TEST(Config, PlanDescribesWhatRuns) {
  AntSystemConfig config;
  config.selection = Selection::TileRoulette;
  EXPECT_EQ(plan_gpu(config, 1002, 1002).describe(),
            "construction=block-per-ant selection=tile-roulette launch=ke-all block-size=256 pheromone-update=symmetrize");
}

}  // namespace
}  // namespace formica::aco
