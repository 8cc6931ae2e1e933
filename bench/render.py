"""``python -m bench.render``: ``bench/results.json`` and ``bench/peers.json`` into markdown.

Writes ``bench/results.md`` (the summary, then every section's figures as measured) and
replaces the part of ``README.md`` between ``<!-- bench:start -->`` and ``<!-- bench:end -->``
with the machine line and the summary table. Nothing is measured here.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import PEERS_RESULTS, RESULTS, ROOT

REPORT = Path(__file__).with_name("results.md")
README = ROOT / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
Row = dict[str, Any]


def cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "**NO**"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"
    if isinstance(v, (list, tuple)):
        return " / ".join(cell(x) for x in v) or "none"
    if isinstance(v, dict):
        return "; ".join(f"{k} {cell(x)}" for k, x in v.items())
    return str(v)


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def dump(section: dict[str, Any]) -> list[str]:
    """Every figure of a section: lists of rows as tables, the rest as a list."""
    lines: list[str] = []
    for key, value in section.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            header = list(dict.fromkeys(k for row in value for k in row))
            lines += ["", *table(header, [[cell(row.get(k, "")) for k in header] for row in value]), ""]
        else:
            lines.append(f"- {key}: {cell(value)}")
    return lines


def pick(rows: list[Row], **want: Any) -> Row:
    return next(r for r in rows if all(r.get(k) == v for k, v in want.items()))


def versus(ours: float, theirs: float, kind: str) -> str:
    """How twoplustwo compares; ``kind`` is ``time``, ``rate`` or ``bytes``.

    >>> versus(2.0, 1.0, "time"), versus(10.0, 5.0, "rate"), versus(1.0, 2.0, "bytes")
    ('2.0x slower', '2.0x faster', '2.0x smaller')
    """
    r = ours / theirs if kind == "bytes" else theirs / ours if kind == "time" else ours / theirs
    words = ("larger", "smaller") if kind == "bytes" else ("faster", "slower")
    r, word = (r, words[0]) if r >= 1 else (1 / r, words[1])
    return f"{r:.1f}x {word}" if r < 10 else f"{r:.0f}x {word}"


def mega(x: float) -> str:
    return f"{x / 1e6:.2f} M" if x < 1e7 else f"{x / 1e6:.0f} M"


def summary(res: dict[str, Any], peers: dict[str, Any] | None) -> list[list[str]]:
    """Rows of the summary table: figure, twoplustwo, the fastest oracle or peer, ratio."""
    rows: list[list[str]] = []

    def add(figure: str, ours: str, theirs: str = "", ratio: str = "") -> None:
        rows.append([figure, ours, theirs, ratio])

    sk = res["oracles"]["specialk_setup"] if "oracles" in res else None
    if (b := res.get("build")) and sk:
        add("build, every DAG of every game (without self-check)",
            f"{b['build_s']:.1f} s, peak {b['peak_bytes'] / 1e9:.1f} GB",
            f"{sk['all_tables_s']:.2f} s (its tables)", versus(b["build_s"], sk["all_tables_s"], "time"))
        add("table bytes / bundle bytes", f"{b['table_bytes']:,} / {b['bundle_bytes']:,}", f"{sk['nbytes']:,}",
            versus(b["table_bytes"], sk["nbytes"], "bytes"))
    if (rt := res.get("runtime")) and sk:
        load = rt["load"]
        add("load: import, `load_tables()`, first evaluate",
            f"{load['total_s'] * 1e3:.0f} ms (`load_tables()` alone: {load['load_tables_s'] * 1e3:.0f} ms)",
            f"{sk['first_evaluate_s'] * 1e3:.0f} ms", versus(load["total_s"], sk["first_evaluate_s"], "time"))
        add("**random order**", "")
        ours = pick(rt["single"], call="evaluate, 7 ints, tuple")["calls_per_s"]
        best = max(res["oracles"]["single_hand"], key=lambda r: r["calls_per_s"])
        add("single hand, 7 ints, calls/s", mega(ours), f"{mega(best['calls_per_s'])} ({best['route']})",
            versus(ours, best["calls_per_s"], "rate"))
        theirs = [pick(rt["batch"], cards=k, evaluator="specialk")["hands_per_s"] for k in (5, 6, 7)]
        for label, check, threads in (("checked, 1 thread", "yes", 1), ("same, unchecked", "no", 1),
                                      ("same, checked, 2 threads", "yes", 2)):
            mine = [pick(rt["batch"], cards=k, check=check, threads=threads)["hands_per_s"] for k in (5, 6, 7)]
            if check == "yes" and threads == 1:
                label = f"batch of {rt['batch_hands']:,}, 5 / 6 / 7 cards, {label}"
            # specialk runs on one thread only, so only one-thread figures get a ratio.
            ratios = " / ".join(versus(m, t, "rate") for m, t in zip(mine, theirs)) if threads == 1 else ""
            oracle = " / ".join(map(mega, theirs)) if ratios else ""
            add(label, " / ".join(map(mega, mine)) + " hands/s", oracle, ratios)
        if (b := rt.get("backends")) and b["backend"] == "c":
            add("C backend against the numpy path: single hand / 7-card batch, 1 thread",
                f"{mega(b['single_c'])} calls/s / {mega(b['batch7_c'])} hands/s",
                f"{mega(b['single_numpy'])} / {mega(b['batch7_numpy'])} (numpy path)",
                " / ".join(versus(b[f"{what}_c"], b[f"{what}_numpy"], "rate") for what in ("single", "batch7")))
        if g := rt.get("games"):
            sd, he = g["short-deck"], g["holdem"]
            add("short deck (`game=\"short-deck\"`): single hand calls/s / 7-card batch, 1 thread",
                f"{mega(sd['single'])} / {mega(sd['batch7'])} hands/s",
                f"{mega(he['single'])} / {mega(he['batch7'])} (Hold'em)",
                " / ".join(versus(sd[k], he[k], "rate") for k in ("single", "batch7")))
        if p := rt.get("prefix"):
            per, whole = p["prefix_s"] / p["boards"] * 1e6, p["batch_s"] / p["boards"] * 1e6
            add(f"{p['holes_per_board']:,} hole pairs against one river board, `prefix(board).evaluate_batch`",
                f"{per:.0f} µs a board", f"{whole:.0f} µs (`evaluate_batch` of the 7-card rows)",
                versus(p["prefix_s"], p["batch_s"], "time"))
            if "rank_hands_s" in p:
                add("`rank_hands(board)`: all 1,326 combos on one river board",
                    f"{p['rank_hands_s'] / p['boards'] * 1e6:.0f} µs a board", f"{whole:.0f} µs (`evaluate_batch`)",
                    versus(p["rank_hands_s"], p["batch_s"], "time"))
    if ex := res.get("exhaustive"):
        r = ex["routes"]
        oracle_s = pick(r, route="all_hands + specialk")["seconds"]
        it = min((x for x in r if x["route"].startswith("iter_hands")), key=lambda x: x["seconds"])
        hist_s = pick(r, route="histogram(7)")["seconds"]
        eq_s = pick(r, route="equity(['As Ah', 'Kd Kc'])")["seconds"]
        sk_s = pick(r, route="specialk on both hands of every board")["seconds"]
        add("**sequential order**", "")
        add(f"`iter_hands(7, reuse=True)`: all {it['hands']:,} hands and their cards in order",
            f"{it['seconds']:.2f} s", f"{oracle_s:.2f} s (extrapolated)", versus(it["seconds"], oracle_s, "time"))
        add("`histogram(7)`", f"{hist_s:.3f} s", f"{oracle_s:.2f} s (lower bound)", versus(hist_s, oracle_s, "time"))
        # Each numpy-path route next to the same route on the C backend, same run.
        pairs = [(pick(r, route=x["route"].removeprefix("numpy path: ")), x)
                 for x in r if x["route"].startswith("numpy path: ")]
        if pairs:
            add("C backend against the numpy path: " + " / ".join(c["route"].split("(")[0] + ", 1 thread"
                                                                   if "threads=1" in c["route"] else
                                                                   c["route"].split("(")[0] for c, _ in pairs),
                " / ".join(f"{c['seconds']:.3f} s" for c, _ in pairs),
                " / ".join(f"{n['seconds']:.3f} s" for _, n in pairs),
                " / ".join(versus(c["seconds"], n["seconds"], "time") for c, n in pairs))
        add("exact heads-up preflop equity, AsAh vs KdKc", f"{eq_s:.3f} s", f"{sk_s:.3f} s", versus(eq_s, sk_s, "time"))
        if three := [x for x in r if x["route"].startswith("equity([") and "Qs" in x["route"]]:
            add("exact 3-way preflop equity, " + three[0]["route"].removeprefix("equity(").rstrip(")"),
                f"{three[0]['seconds'] * 1e3:.1f} ms")
        ranged = [x for x in r if "method='exact'" in x["route"]]
        loops = [x for x in r if x["route"].startswith("a loop of equity()")]
        if ranged and loops:
            agree = "" if loops[0].get("agrees") else " (**counts differ**)"
            add("exact range against range preflop, " + ranged[0]["route"].removeprefix("equity(").split(", method")[0],
                f"{ranged[0]['seconds']:.3f} s{agree}", f"{loops[0]['seconds']:.2f} s ({loops[0]['route']})",
                versus(ranged[0]["seconds"], loops[0]["seconds"], "time"))
        if mc := [x for x in r if "monte-carlo" in x["route"]]:
            games = mc[0]["hands"] // 2
            equity, err = mc[0]["checksum"]
            honest = "within" if mc[0].get("within_4_stderr") else "**not within**"
            add(f"Monte Carlo, AsAh against a random hand, {games:,} games",
                f"{mega(games / mc[0]['seconds'])} games/s; {100 * equity:.3f}% ± {100 * err:.3f}%",
                f"exact 85.204%: {honest} 4 stderr")
    if pf := res.get("preflop"):
        agree = "" if pf["aa_agrees"] else " (**AA differs from the published counts**)"
        add(f"exact preflop table: all 169 classes against a random hand, {pf['threads']} threads",
            f"{pf['vs_random_s']:.1f} s{agree}", "about 52 min (PokerStove's 114 M games/s)",
            versus(pf["vs_random_s"], pf["vs_random_games"] / 114e6, "time"))
        if "full_grid_s" in pf:
            add(f"exact heads-up grid, all 169 x 169 classes, {pf['threads']} threads", f"{pf['full_grid_s']:.1f} s")
    if ai := res.get("poker_ai"):
        add("**tables for poker AI**", "")
        for row in ai["rows"]:
            agree = "" if row.get("agrees", True) else " (**check failed**)"
            seconds = row["seconds"]
            shown = f"{seconds * 1e6:.0f} µs" if seconds < 1e-3 else (
                f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s")
            if "rate" in row:
                shown = f"{mega(row['rate'])} a second"
            add(row["figure"], shown + agree)
    if bd := res.get("board"):
        add("**board analysis** (`classify`, `board_report`, `flop_report`; goals of issue 39)", "")
        for row in bd["rows"]:
            seconds = row["seconds"]
            shown = f"{mega(row['rate'])} hands/s" if "rate" in row else (
                f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s")
            goal = f"goal {mega(row['goal_rate'])}/s" if "goal_rate" in row else (
                f"goal {row['goal_seconds'] * 1e3:g} ms" if row.get("goal_seconds", 1) < 1 else
                f"goal {row['goal_seconds']:g} s" if "goal_seconds" in row else "")
            add(row["figure"], shown, goal)
    if ab := res.get("abstraction"):
        add(f"**bucket tables** (`twoplustwo abstraction`, k = {ab['k']}; its own process each)", "")
        for row in ab["rows"]:
            shown = f"{row['seconds']:.0f} s, peak {row['peak_bytes'] / 2**30:.1f} GiB"
            if "mean_distance" in row:
                converged = "converged" if row["converged"] else "round limit"
                better = "" if row["agrees"] else " (**not below the baseline**)"
                name = row["distance"].upper()
                add(row["figure"], f"{shown}; mean {name} {row['mean_distance']:.4f}{better} "
                    f"({row['iterations']} rounds, {converged})",
                    f"percentile buckets: mean {name} {row['percentile_mean_distance']:.4f}",
                    versus(row["mean_distance"], row["percentile_mean_distance"], "bytes"))
            else:
                add(row["figure"], shown)
    if hr := res.get("handranks"):
        add("**classic `HandRanks.dat`** (`twoplustwo export-handranks`, read by a C walk)", "")
        add("export: time, file bytes", f"{hr['export_s']:.2f} s, {hr['file_bytes']:,} bytes",
            f"{hr['original_bytes']:,} bytes (the original generator's file)",
            versus(hr["file_bytes"], hr["original_bytes"], "bytes"))
        for order in ("in order", "random"):
            ours = pick(hr["walks"], order=order, layout="typed dag7 layers")
            theirs = pick(hr["walks"], order=order, layout="HandRanks.dat export")
            hands = f"all {ours['hands']:,} 7-card hands in order" if order == "in order" else (
                f"{ours['hands']:,} random 7-card hands")
            agree = "" if ours["agrees"] and theirs["agrees"] else " (**values differ**)"
            add(f"C walk of {hands}, hands/s", f"{mega(ours['hands_per_s'])} (typed dag7 layers){agree}",
                f"{mega(theirs['hands_per_s'])} (the `HandRanks.dat` export)",
                versus(ours["hands_per_s"], theirs["hands_per_s"], "rate"))
        if c := hr.get("reference"):
            agree = "" if c.get("evaluate_batch_agrees") else " (**values differ**)"
            add(f"the same random hands, hands/s: `evaluate_batch` ({c['backend']}, 1 thread)",
                mega(c["evaluate_batch_hands_per_s"]) + agree,
                f"{mega(c['hands_per_s'])} (the walk's reads, none waiting on another, C)",
                versus(c["evaluate_batch_hands_per_s"], c["hands_per_s"], "rate"))
    if (m := res.get("memory")) and "summed_table_pss_mib" in m:
        pss = m["summed_table_pss_mib"]
        add("summed table PSS of 1 / 4 processes reading every page", " / ".join(f"{v:.1f} MiB" for v in pss.values()),
            f"{4 * pss['1']:.0f} MiB (4 private copies)", versus(pss["4"], 4 * pss["1"], "bytes"))
    if peers and len(peers["per_call"]) > 1:
        ours, best = peers["per_call"][0], max(peers["per_call"][1:], key=lambda r: r["calls_per_s"])
        loop, best_loop = peers["equity"][1], min(peers["equity"][2:], key=lambda r: r["seconds"])
        add(f"**peers** (`make bench-peers`, {peers['machine']['date']})", "")
        mine, theirs = ours["calls_per_s"], best["calls_per_s"]
        add("single hand, 7 ints, calls/s", mega(mine), f"{mega(theirs)} ({best['evaluator']})",
            versus(mine, theirs, "rate"))
        if len(omaha := peers.get("omaha", [])) > 1:
            mine, theirs = omaha[0]["calls_per_s"], omaha[1]["calls_per_s"]
            agree = "" if omaha[1].get("agrees") else " (**values differ**)"
            add("Omaha (PLO4), single `evaluate_omaha` calls/s", mega(mine),
                f"{mega(theirs)} ({omaha[1]['evaluator']}){agree}", versus(mine, theirs, "rate"))
        if len(fresh := peers.get("fresh", [])) > 1:
            mine, theirs = fresh[0]["seconds"], fresh[1]["seconds"]
            add("fresh process: import + first evaluate", f"{mine * 1e3:.1f} ms",
                f"{theirs * 1e3:.1f} ms ({fresh[1]['library']})", f"{(mine - theirs) * 1e3:+.1f} ms")
        add("preflop equity, a Python loop over every board",
            f"{loop['seconds']:.2f} s (`equity()`: {peers['equity'][0]['seconds']:.3f} s)",
            f"{best_loop['seconds']:.2f} s ({best_loop['evaluator']})",
            versus(loop["seconds"], best_loop["seconds"], "time"))
    compiled = (peers or {}).get("compiled", {})
    # One run per batch loop ("runs"), or, from a run before there were loops, one run at the top.
    runs = compiled.get("runs", [{"loop": "", **compiled}] if compiled.get("figures") else [])
    for run in runs:
        if not run.get("figures"):
            if run.get("note"):
                add(f"compiled engines ({run.get('loop') or 'the loop'}): {run['note']}", "")
            continue
        loop = f", the {run['loop']} loop (`$TWOPLUSTWO_BATCH_LOOP={run['loop']}`)" if run.get("loop") else ""
        where = f", {compiled['machine']}" if compiled.get("machine") else ""
        loads = [x for f in run["figures"] for x in f.get("load", [])]
        if loads and compiled.get("machine"):  # the machine is shared: how busy it was
            where += f", load average {min(loads):.1f}–{max(loads):.1f}"
        add(f"**compiled engines** (`make bench-peers`: ../shared/compiled-peers, one thread{loop}{where})", "")
        for f in run["figures"]:
            # rand7 has no agreement to state: each engine sums its own value scale.
            ratio = f"{f['ratio']:.2f}x OMPEval" + ("" if f.get("agree", True) else " (**answers differ**)")
            if "ours_mhps" in f:
                add("10 M random 7-card hands, `evaluate_batch`", f"{f['ours_mhps']:.0f} M/s",
                    f"{f['ompeval_mhps']:.0f} M/s (OMPEval), {f['hhe_mhps']:.0f} M/s (holdem-hand-evaluator)", ratio)
            elif "ours_gps" in f:
                add("Monte Carlo, AsAh vs random, 2 M games", f"{f['ours_gps'] / 1e6:.1f} M games/s",
                    f"{f['ompeval_gps'] / 1e6:.1f} M games/s (OMPEval)", ratio)
            else:
                add(_COMPILED_EQUITY.get(f["figure"], f["figure"]), f"{f['ours_s'] * 1e3:.2f} ms",
                    f"{f['ompeval_s'] * 1e3:.2f} ms (OMPEval)", ratio)
    if not runs and compiled.get("note"):
        add(f"compiled engines: {compiled['note']}", "")
    if threads := (peers or {}).get("threads"):
        add("**two threads** (`make bench-peers`: the same inputs, against one thread of twoplustwo)", "")
        for f in threads:
            one, two = f["seconds"]["1"], f["seconds"]["2"]
            agree = "" if f["agree"] else " (**answers differ**)"
            if f["figure"] == "rand7":
                cells = f"{f['work'] / two / 1e6:.0f} M/s", f"{f['work'] / one / 1e6:.0f} M/s (1 thread)"
            elif f["figure"] == "mc":
                cells = f"{f['work'] / two / 1e6:.1f} M games/s", f"{f['work'] / one / 1e6:.1f} M games/s (1 thread)"
            else:
                cells = f"{two * 1e3:.2f} ms", f"{one * 1e3:.2f} ms (1 thread)"
            add(_THREADS[f["figure"]], *cells, f"{f['speedup']:.2f}x one thread{agree}")
    return rows


# The two-thread figures, in words.
_THREADS = {
    "rand7": "10 M random 7-card hands, `evaluate_batch`, 2 threads",
    "eq_rr_pre": 'exact "QQ+,AKs" vs "AK" preflop, 2 threads',
    "eq_rr_flop": "the same ranges on Qh 7c 2d, 2 threads",
    "mc": "Monte Carlo, AsAh vs random, 2 M games, 2 threads",
}


# The driver's exact-equity figures, in words.
_COMPILED_EQUITY = {
    "eq_hu_pre": "exact heads-up preflop, AsAh vs KdKc",
    "eq_3way_pre": "exact 3-way preflop, AsAh / KdKc / QsJh",
    "eq_rr_pre": 'exact range against range preflop, "QQ+,AKs" vs "AK"',
    "eq_rr_flop": "the same ranges on Qh 7c 2d",
}


def _pages(m: dict[str, Any]) -> str:
    """How the tables' large files were mapped, where the run could tell."""
    if m.get("huge_page_bytes") is None:
        return ""
    return (f"; {m['huge_page_bytes'] / 2**20:.0f} of the {m['large_file_bytes'] / 2**20:.0f} MiB of the tables' "
            "large files were mapped with 2 MiB pages, as `twoplustwo info` tells")


def head(res: dict[str, Any], peers: dict[str, Any] | None) -> list[str]:
    """The machine line and the summary table."""
    m = res["machine"]
    text = (
        "`make bench` runs every benchmark (fixed seeds, printed checksums) into `bench/results.json`, rendered "
        "into `bench/results.md` and this table; `make bench-peers` adds eval7, phevaluator and treys from a "
        "separate virtualenv, and OMPEval and holdem-hand-evaluator (C++ and Rust, built by "
        "`../shared/compiled-peers/run.py` when that folder is beside the checkout). "
        f"Figures from one {res['run_s']:.0f} s run on {m['cpu']} ({m['cores']} cores), "
        f"Python {m['python']}, numpy {m['numpy']}, {m['date']} (load average {m['load_average']:.2f} at the start, "
        f"{res['load_average_end']:.2f} at the end; shared machine: expect ±20%{_pages(m)}). Ratios are against "
        "the fastest oracle in the same process (SpecialK's additive keys, vectorised with numpy); in the peer "
        "rows, against the fastest peer, measured in one process with twoplustwo."
    )
    # Wrapped like the rest of the README, never inside a `code span`.
    wrapped = textwrap.fill(re.sub(r"`[^`]*`", lambda c: c[0].replace(" ", "\0"), text), 78, break_on_hyphens=False)
    header = ["figure", "twoplustwo", "fastest oracle or peer", "ratio"]
    return [wrapped.replace("\0", " "), "", *table(header, summary(res, peers))]


def main() -> int:
    if not RESULTS.is_file():
        print(f"nothing to render: no {RESULTS} (run `make bench`)", file=sys.stderr)
        return 1
    res = json.loads(RESULTS.read_text())
    peers = json.loads(PEERS_RESULTS.read_text()) if PEERS_RESULTS.is_file() else None
    lines = ["# Benchmarks", "", *head(res, peers)]
    sections = {k: v for k, v in res.items() if isinstance(v, dict) and k != "machine"}
    if peers:
        sections["peers"] = peers
    for name, section in sections.items():
        lines += ["", f"## {name}", "", *dump(section)]
    REPORT.write_text("\n".join(lines) + "\n")

    text = README.read_text()
    before, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not (start and end):
        print(f"{README}: no {START} ... {END} region; left as it was", file=sys.stderr)
    else:
        README.write_text(before + "\n".join([START, *head(res, peers), END]) + tail)
    print(f"written {REPORT}" + (f" and the table in {README}" if start and end else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
