#!/usr/bin/env python3
"""Opens conformance reports in headless Chromium and checks what the page
shows against the JSON reports it was made from.

    check_reports.py --run RUN.html RUN.json [--run ...] \
        --matrix MATRIX.html A.json B.json ... [--screenshot matrix.png]

For a run page (`imcodec conformance --html`): the implementation's name, the
verdict, every count of the summary table (per area and the totals, read from
the page) against the JSON report's summary, one row per case, and the status
filter: "failures" shows exactly the failed cases and unexpected passes,
"known failures" and "skipped" exactly those, each counted by the page and
by the rows left visible.

For the matrix (`imcodec report --html`): one column per JSON report, named
by its implementation; every cell's counts and the totals against each
report's summary; the cases on which the implementations differ, computed
here from the JSON reports (a case's status differs between them, or some
report lacks it), against the page's count and its rows; the filter to the
cases some implementation fails (failed, known failure or unexpected pass);
and the drill-down: a click on each area's cell leaves exactly that area's
differing cases visible. Differential runs' JSON reports (`imcodec
differential --json`) given among them: the differential section shows each
pair's checks and disagreements as the report has them, one signature row
per group (those no failure list names marked so), and each group's minimal
case.

Both: the page loads nothing but itself (any other request fails the check).
Runs in the environment .build/browser (Tests/Browser/requirements.txt) with
Debian's Chromium (/usr/bin/chromium). Exit status 0 when everything
matches, 1 otherwise, with one line per mismatch.
"""

import argparse
import json
import pathlib
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
COUNT_KEYS = ("cases", "passed", "failed", "skipped", "knownFailures", "unexpectedPasses")

problems = []


def expect(condition, message):
    if not condition:
        problems.append(message)


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def watch_requests(page, own):
    """Records every request for anything but the page itself."""
    def on_request(request):
        if request.url != own:
            problems.append(f"{own}: the page requested {request.url}")
    page.on("request", on_request)


# Every count of the summary table, as the page shows it: {"areas": {area: {key: text}}, "total": {key: text}}.
READ_SUMMARY = """() => {
  const read = (row) => Object.fromEntries(
    Array.from(row.querySelectorAll('[data-count]'), (cell) => [cell.dataset.count, cell.textContent.trim()]));
  const areas = {};
  document.querySelectorAll('#summary tbody tr').forEach((row) => { areas[row.dataset.area] = read(row); });
  return {areas: areas, total: read(document.querySelector('#summary tfoot tr'))};
}"""

# Every matrix cell: {"areas": {implementation: {area: cell}}, "total": {implementation: cell}}, where a cell
# is {"counts": {key: text}, "hidden": [keys whose count is not displayed]}. A cell of an area in which an
# implementation ran no case has no counts and is left out.
READ_MATRIX = """() => {
  const cell = (td) => {
    const counts = {}, hidden = [];
    td.querySelectorAll('[data-count]').forEach((span) => {
      counts[span.dataset.count] = span.textContent.trim();
      if (span.offsetParent === null) { hidden.push(span.dataset.count); }
    });
    return {counts: counts, hidden: hidden};
  };
  const areas = {}, total = {};
  document.querySelectorAll('#matrix tbody td[data-implementation]').forEach((td) => {
    if (!td.querySelector('[data-count]')) { return; }
    (areas[td.dataset.implementation] = areas[td.dataset.implementation] || {})[td.dataset.area] = cell(td);
  });
  document.querySelectorAll('#matrix tfoot td[data-implementation]').forEach((td) => {
    total[td.dataset.implementation] = cell(td);
  });
  return {areas: areas, total: total};
}"""


def compare_counts(what, shown, counts):
    """The counts a page shows (text) against a report's summary counts."""
    for key in COUNT_KEYS:
        text = shown.get(key)
        expect(text is not None and text.isdigit() and int(text) == counts[key],
               f"{what}: {key} is {text!r} in the page, {counts[key]} in the report")


def number(locator, what):
    text = locator.text_content()
    try:
        return int(text.strip())
    except (AttributeError, ValueError):
        problems.append(f"{what}: '{text}' is not a count")
        return None


def check_run(browser, html, report):
    url = pathlib.Path(html).resolve().as_uri()
    page = browser.new_page()
    watch_requests(page, url)
    page.goto(url)
    name = f"{html}"
    expect(page.inner_text("#implementation") == report["implementation"],
           f"{name}: the page names {page.inner_text('#implementation')!r}, the report {report['implementation']!r}")
    verdict_class = page.get_attribute("#verdict", "class")
    expect(("pass" in verdict_class.split()) == report["success"],
           f"{name}: the verdict ({verdict_class}) does not say success={report['success']}")
    summary = report["summary"]
    shown = page.evaluate(READ_SUMMARY)
    compare_counts(f"{name} total", shown["total"], summary["total"])
    expect(sorted(shown["areas"]) == sorted(summary["areas"]),
           f"{name}: the page's areas are {sorted(shown['areas'])}, the report's {sorted(summary['areas'])}")
    for area, counts in summary["areas"].items():
        compare_counts(f"{name} area {area}", shown["areas"].get(area, {}), counts)
    expect(page.locator("#case-table tbody tr").count() == len(report["cases"]),
           f"{name}: {page.locator('#case-table tbody tr').count()} case rows for {len(report['cases'])} cases")
    statuses = [case["status"] for case in report["cases"]]
    for value, wanted in [
        ("all", len(statuses)),
        ("failures", statuses.count("failed") + statuses.count("unexpected-pass")),
        ("known-failure", statuses.count("known-failure")),
        ("skipped", statuses.count("skipped")),
        ("passed", statuses.count("passed")),
    ]:
        page.select_option("#status-filter", value)
        shown = number(page.locator("#shown"), f"{name} shown")
        visible = page.locator("#case-table tbody tr:visible").count()
        expect(shown == wanted and visible == wanted,
               f"{name}: filter {value} shows {shown} (rows visible: {visible}), the report has {wanted}")
    page.close()


def differing(reports):
    """The cases on which the reports differ, in the order they first appear: (id, area, status per report)."""
    statuses = {}
    order = []
    for column, report in enumerate(reports):
        for case in report["cases"]:
            if case["id"] not in statuses:
                statuses[case["id"]] = [None] * len(reports)
                order.append((case["id"], case["area"]))
            statuses[case["id"]][column] = case["status"]
    return [(case_id, area, statuses[case_id]) for case_id, area in order if len(set(statuses[case_id])) > 1]


def check_differential(page, html, runs):
    """The differential section against the differential runs' reports."""
    for run in runs:
        for pair in run["pairs"]:
            row = page.locator(f"#differential tr[data-pair='{pair['name']}']")
            expect(row.count() == 1, f"{html}: {row.count()} rows for the pair {pair['name']}, not 1")
            if row.count() != 1:
                continue
            for key in ("checks", "disagreements"):
                shown = number(row.locator(f"td.{key}"), f"{html} {pair['name']} {key}")
                expect(shown == pair[key], f"{html}: {pair['name']} shows {shown} {key}, its report {pair[key]}")
    groups = [group for run in runs for group in run["groups"]]
    rows = page.locator("#differential table.differential-signatures tbody tr")
    expect(rows.count() == len(groups), f"{html}: {rows.count()} signature rows, the reports {len(groups)} groups")
    unlisted = page.locator("#differential table.differential-signatures tbody tr[data-listed='false']").count()
    wanted = sum(1 for group in groups if group["listedReason"] is None)
    expect(unlisted == wanted, f"{html}: {unlisted} signatures shown as not listed, the reports {wanted}")
    details = page.locator("#differential details").count()
    expect(details == len(groups), f"{html}: {details} minimal cases, the reports {len(groups)} groups")


def check_matrix(browser, html, reports, screenshot):
    runs = [report for report in reports if report.get("format") == "imcodec-differential-report"]
    reports = [report for report in reports if report.get("format") != "imcodec-differential-report"]
    url = pathlib.Path(html).resolve().as_uri()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    watch_requests(page, url)
    page.goto(url)
    check_differential(page, html, runs)
    headers = page.locator("#matrix thead th[data-implementation]")
    names = [headers.nth(i).get_attribute("data-implementation") for i in range(headers.count())]
    expect(names == [report["implementation"] for report in reports],
           f"{html}: the columns are {names}, the reports {[r['implementation'] for r in reports]}")
    cells = page.evaluate(READ_MATRIX)
    for report in reports:
        implementation = report["implementation"]
        summary = report["summary"]
        total = cells["total"].get(implementation, {})
        compare_counts(f"{html} {implementation} total", total.get("counts", {}), summary["total"])
        hidden = [key for key in total.get("hidden", []) if summary["total"][key] != 0]
        expect(not hidden, f"{html}: {implementation}'s non-zero totals {hidden} are not shown")
        shown_areas = cells["areas"].get(implementation, {})
        expect(sorted(shown_areas) == sorted(summary["areas"]),
               f"{html}: {implementation} has cells for {sorted(shown_areas)}, its report areas "
               f"{sorted(summary['areas'])}")
        for area, counts in summary["areas"].items():
            cell = shown_areas.get(area, {})
            compare_counts(f"{html} {implementation} in {area}", cell.get("counts", {}), counts)
            hidden = [key for key in cell.get("hidden", []) if counts[key] != 0]
            expect(not hidden, f"{html}: {implementation}'s non-zero counts {hidden} in {area} are not shown")
    expected = differing(reports)
    count = number(page.locator("#difference-count"), f"{html} difference count")
    expect(count == len(expected), f"{html}: the page counts {count} differing cases, the reports {len(expected)}")
    rows = page.locator("#difference-table tbody tr")
    ids = rows.evaluate_all("rows => rows.map(row => row.dataset.id)")
    expect(ids == [case_id for case_id, _, _ in expected],
           f"{html}: the differing cases in the page are not those of the reports")
    if screenshot:
        page.locator("#matrix").scroll_into_view_if_needed()
        legend = page.locator(".legend").bounding_box()
        page.screenshot(path=screenshot, clip={"x": 0, "y": 0, "width": 1400,
                                               "height": legend["y"] + legend["height"] + 16})
    failing = sum(1 for _, _, statuses in expected
                  if any(status not in (None, "passed", "skipped") for status in statuses))
    page.check("#failing-filter")
    shown = number(page.locator("#shown"), f"{html} shown failing")
    expect(shown == failing, f"{html}: 'only cases an implementation fails' shows {shown}, the reports have {failing}")
    page.uncheck("#failing-filter")
    areas = sorted({area for report in reports for area in report["summary"]["areas"]})
    first = reports[0]["implementation"]
    for area in areas:
        wanted = sum(1 for _, case_area, _ in expected if case_area == area)
        cell = page.locator(f"#matrix tbody td[data-implementation='{first}'][data-area='{area}'] a")
        if cell.count() == 0:
            cell = page.locator(f"#matrix tbody tr[data-area='{area}'] th a")
        cell.click()
        shown = number(page.locator("#shown"), f"{html} shown for {area}")
        visible = page.locator("#difference-table tbody tr:visible").count()
        expect(shown == wanted and visible == wanted,
               f"{html}: the drill-down to {area} shows {shown} (rows visible: {visible}), the reports differ on "
               f"{wanted}")
    page.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", nargs=2, action="append", default=[], metavar=("HTML", "JSON"))
    parser.add_argument("--matrix", nargs="+", metavar="HTML JSON")
    parser.add_argument("--screenshot", metavar="PNG", help="where to save a picture of the matrix")
    arguments = parser.parse_args()
    if not arguments.run and not arguments.matrix:
        parser.error("give --run or --matrix")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for html, report in arguments.run:
            check_run(browser, html, load(report))
        if arguments.matrix:
            html, *paths = arguments.matrix
            check_matrix(browser, html, [load(path) for path in paths], arguments.screenshot)
        browser.close()
    for problem in problems:
        print(problem)
    checked = len(arguments.run) + (1 if arguments.matrix else 0)
    print(f"check_reports.py: {checked} pages, {len(problems)} mismatches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
