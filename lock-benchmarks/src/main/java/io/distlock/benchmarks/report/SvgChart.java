/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A hand-written SVG of horizontal bar charts, one panel per scenario, so that a reader
 * takes in the comparison at a glance.
 */
final class SvgChart {

	private static final int WIDTH = 1030;

	// Room for the longest contender label, "distlock @DistributedLocked(autoRenew =
	// false)".
	private static final int LABEL_WIDTH = 320;

	private static final int BAR_AREA = 470;

	private static final int BAR_HEIGHT = 18;

	private static final int BAR_GAP = 6;

	private static final int PANEL_TITLE = 30;

	private static final int PANEL_GAP = 18;

	private final String title;

	private final String subtitle;

	private final List<Panel> panels = new ArrayList<>();

	SvgChart(String title, String subtitle) {
		this.title = title;
		this.subtitle = subtitle;
	}

	Panel panel(String title) {
		Panel panel = new Panel(title);
		this.panels.add(panel);
		return panel;
	}

	String render() {
		StringBuilder body = new StringBuilder();
		int y = 64;
		for (Panel panel : this.panels) {
			if (panel.bars.isEmpty()) {
				continue;
			}
			y = panel.render(body, y) + PANEL_GAP;
		}
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
						+ "font-family=\"Helvetica, Arial, sans-serif\">%n",
				WIDTH, y, WIDTH, y));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, y));
		svg.append(text(16, 28, 18, "bold", "#222222", "start", this.title));
		svg.append(text(16, 48, 12, "normal", "#555555", "start", this.subtitle));
		svg.append(body);
		svg.append("</svg>\n");
		return svg.toString();
	}

	private static String text(double x, double y, int size, String weight, String color, String anchor,
			String content) {
		return String.format(Locale.ROOT,
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" font-weight=\"%s\" fill=\"%s\" text-anchor=\"%s\">%s</text>%n",
				x, y, size, weight, color, anchor, escape(content));
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	/**
	 * One panel: a titled group of bars on a common scale starting at zero.
	 */
	static final class Panel {

		private final String title;

		private final List<Bar> bars = new ArrayList<>();

		Panel(String title) {
			this.title = title;
		}

		Panel bar(String label, double value, String annotation, String color) {
			this.bars.add(new Bar(label, value, annotation, color));
			return this;
		}

		int render(StringBuilder svg, int top) {
			svg.append(text(16, top + 18, 14, "bold", "#222222", "start", this.title));
			double max = this.bars.stream().mapToDouble(Bar::value).filter(Double::isFinite).max().orElse(1);
			int y = top + PANEL_TITLE;
			svg.append(String.format(Locale.ROOT,
					"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbbbbb\" stroke-width=\"1\"/>%n",
					LABEL_WIDTH, y - 4, LABEL_WIDTH, y + this.bars.size() * (BAR_HEIGHT + BAR_GAP)));
			for (Bar bar : this.bars) {
				svg.append(text(LABEL_WIDTH - 8, y + BAR_HEIGHT - 5, 12, "normal", "#333333", "end", bar.label));
				double width = (Double.isFinite(bar.value) && max > 0) ? Math.max(1, bar.value / max * BAR_AREA) : 0;
				if (width > 0) {
					svg.append(String.format(Locale.ROOT,
							"<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>%n",
							LABEL_WIDTH, y, width, BAR_HEIGHT, bar.color));
				}
				svg.append(text(LABEL_WIDTH + width + 6, y + BAR_HEIGHT - 5, 12, "normal", "#222222", "start",
						bar.annotation));
				y += BAR_HEIGHT + BAR_GAP;
			}
			return y;
		}

	}

	private record Bar(String label, double value, String annotation, String color) {

	}

}
