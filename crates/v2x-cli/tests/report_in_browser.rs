//! Issue 28 item 4: the reports as a reader's browser renders them. Headless Chromium
//! (Debian's `chromium`, installed by scripts/setup.sh) loads each report.html of `v2x sim`,
//! `v2x bench` and `v2x testbed` with tests/data/figure-check.js appended, which finds broken
//! images and empty figures (axes and no data, without a note saying so); the test fails on
//! any. A hand-broken page checks that the checker itself fails.
//!
//! Without Chromium the test says so and passes, unless `V2X_REQUIRE_BROWSER` is set (as
//! `make test` sets it after scripts/setup.sh installed Chromium).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{lossy, repo, v2x_command};

fn chromium() -> Option<PathBuf> {
    let candidates = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(PathBuf::from));
    for c in candidates {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    None
}

/// What figure-check.js found in `report` (a JSON object), as Chromium rendered it.
fn check_in_browser(browser: &Path, report: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(report).unwrap();
    let script =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/figure-check.js")).unwrap();
    let checked = report.with_file_name("report-checked.html");
    std::fs::write(
        &checked,
        html.replace("</body>", &format!("<script>{script}</script></body>")),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", checked.display()))
        .output()
        .unwrap();
    let dom = lossy(&o.stdout);
    let found = dom
        .split("<pre id=\"figure-check\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("{}: the check did not run\n{}", report.display(), lossy(&o.stderr)));
    let text = found
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn assert_renders(browser: &Path, report: &Path, at_least: usize) {
    let found = check_in_browser(browser, report);
    let problems = found["problems"].as_array().unwrap();
    assert!(problems.is_empty(), "{}: {problems:?}", report.display());
    let figures = found["figures"].as_array().unwrap();
    assert!(figures.len() >= at_least, "{}: {figures:?}", report.display());
}

fn run(c: &mut Command) {
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", lossy(&o.stderr));
}

#[test]
fn reports_render_without_broken_images_or_empty_figures() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("V2X_REQUIRE_BROWSER").is_none(),
            "V2X_REQUIRE_BROWSER is set but no Chromium was found"
        );
        eprintln!("report_in_browser: skipped, no chromium (scripts/setup.sh installs it)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();

    // The checker fails what it must: a broken image, axes without data.
    let bad = tmp.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    let chart = v2x_report::plot::LineChart {
        title: "t".into(),
        lines: vec![v2x_report::plot::Line {
            label: "a".into(),
            colour: 1,
            points: vec![(0.0, 0.1), (1.0, 0.9)],
            ..Default::default()
        }],
        ..Default::default()
    }
    .render()
    .unwrap();
    // The data line (in colour 1) removed: axes remain, no data, no note.
    assert!(chart.contains("#D55E00"));
    let emptied: String = chart
        .lines()
        .filter(|l| !l.contains("#D55E00"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut page = v2x_report::html::Page::new("bad");
    page.h2("an emptied figure").svg(&emptied);
    let html = page.finish().replace("</body>", "<img src=\"missing.png\"></body>");
    std::fs::write(bad.join("report.html"), html).unwrap();
    let found = check_in_browser(&browser, &bad.join("report.html"));
    let problems = found["problems"].to_string();
    assert!(
        problems.contains("broken image") && problems.contains("empty figure"),
        "{problems}"
    );

    // v2x sim: two variants, two replications (error bars), every figure.
    let scenario = tmp.path().join("s.toml");
    std::fs::write(
        &scenario,
        "name = \"browser\"\nduration_s = 1.5\nwarmup_s = 0.5\nreplications = 2\n\
         [mobility]\nkind = \"highway\"\nlength_m = 400.0\nlanes_per_direction = 1\ndensity_veh_per_km_lane = 15.0\n\
         [[variant]]\nname = \"none\"\nprotocol = \"none\"\n\
         [[variant]]\nname = \"ecdsa\"\nprotocol = \"etsi-v1.2.1\"\nprofile = \"xeon-e5-2667\"\n",
    )
    .unwrap();
    let sim = tmp.path().join("sim");
    run(v2x_command()
        .arg("sim")
        .arg(&scenario)
        .arg("--quiet")
        .arg("--out")
        .arg(&sim));
    assert_renders(&browser, &sim.join("report.html"), 5);
    for stem in ["pdr_vs_distance", "mac_delay_ccdf", "e2e_delay_cdf"] {
        assert!(sim.join(format!("{stem}.png")).exists(), "{stem}.png");
    }

    // v2x bench, quick: its three dot charts.
    let bench = tmp.path().join("bench");
    run(v2x_command()
        .args(["bench", "--quick", "--suite", "raw,protocols", "--no-progress", "--out"])
        .arg(&bench));
    assert_renders(&browser, &bench.join("report.html"), 3);

    // v2x testbed: station processes on loopback, its goodput and latency figures.
    let testbed = tmp.path().join("testbed");
    let tb = tmp.path().join("tb.toml");
    let text = std::fs::read_to_string(repo("scenarios/testbed/attack.toml"))
        .unwrap()
        .replace("duration_s = 3.0", "duration_s = 1.0");
    std::fs::write(&tb, text).unwrap();
    run(&mut common::testbed_command(&tb, &testbed));
    assert_renders(&browser, &testbed.join("report.html"), 3);
}
