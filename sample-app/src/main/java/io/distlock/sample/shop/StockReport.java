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

package io.distlock.sample.shop;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.LockContext;
import io.distlock.annotation.DistributedLocked;
import io.distlock.sample.SampleProperties;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The shop's scheduled stock report: every node schedules it, one node runs it per
 * period. One lock for the job, under a key of its own, {@code stock-report}: the default
 * key, the method's qualified name, would change with a rename or a move to another
 * package, and two versions of the shop running side by side during a rolling update
 * would then both report. {@code minHold} keeps the lock taken for most of the period
 * after a report that took milliseconds, so a node whose schedule fires a little later
 * skips that period instead of reporting again; a busy lock skips the run quietly.
 */
@Component
public class StockReport {

	private static final Log logger = LogFactory.getLog(StockReport.class);

	private final Inventory inventory;

	private final SampleProperties properties;

	/**
	 * Create the report.
	 * @param inventory the shop's data
	 * @param properties the sample's settings
	 */
	public StockReport(Inventory inventory, SampleProperties properties) {
		this.inventory = inventory;
		this.properties = properties;
	}

	/**
	 * Report the stock of the default product, on one node per period.
	 */
	@Scheduled(fixedRateString = "${sample.report-interval}")
	@DistributedLocked(key = "stock-report", ttl = "30s", minHold = "${sample.report-min-hold}")
	public void report() {
		long fencingToken = LockContext.current().orElseThrow().fencingToken();
		String stock;
		try {
			stock = this.inventory.readStock(1) + " of product 1 in stock";
		}
		catch (ProductNotFoundException ex) {
			// The first report may run before the default product is put in.
			stock = "product 1 not stocked yet";
		}
		logger
			.info("Stock report by node " + this.properties.node() + " (fencing token " + fencingToken + "): " + stock);
	}

}
