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

package io.distlock.sample.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.sample.shop.Stocktake;

/**
 * Prints the demo's progress and its report.
 */
final class DemoReport {

	private static final String ROW = "  %-30s %-28s %s%n";

	// Spring Boot's console format: "2026-11-30T02:50:01.234Z INFO 42 --- [app] [thread]
	// logger : message".
	private static final Pattern LOG_LINE = Pattern.compile("^\\S*T(\\d\\d:\\d\\d:\\d\\d\\.\\d{3})\\S*\\s.*? : (.*)$");

	private final PrintStream out;

	DemoReport(PrintStream out) {
		this.out = out;
	}

	void title(DemoOptions options) {
		this.out.printf(
				"distlock demo: %d nodes of the sample shop share one Redis; %d buyers at once race for %d units%n",
				options.nodes(), options.buyers(), options.stock());
		this.out.println();
	}

	void line(String line) {
		this.out.println(line);
	}

	void raceStarting(DemoOptions options, String endpoint, String guard) {
		this.out.printf("Race: %d concurrent POST /products/1/%s (%s), spread over the nodes ... ", options.buyers(),
				endpoint, guard);
		this.out.flush();
	}

	void raceDone(RaceResult race) {
		this.out.printf("%.2f s%n", Demo.seconds(race.took()));
	}

	void races(List<String> nodes, RaceResult unlocked, RaceResult locked) {
		this.out.println();
		row("", "without the lock", "with @DistributedLocked");
		row("", "POST .../" + unlocked.endpoint(), "POST .../" + locked.endpoint());
		row("units in stock at start", unlocked, locked, (race) -> race.product().received());
		row("units sold (HTTP 200)", unlocked, locked, RaceResult::sold);
		row("turned away: sold out (409)", unlocked, locked, RaceResult::soldOut);
		row("turned away: lock busy (409)", unlocked, locked, RaceResult::lockBusy);
		row("failed requests", unlocked, locked, RaceResult::failed);
		row("final stock", unlocked, locked, (race) -> race.product().stock());
		row("orders stored", unlocked, locked, (race) -> race.product().sold());
		row("OVERSOLD", unlocked, locked, RaceResult::oversold);
		row("lost stock updates", unlocked, locked, RaceResult::lostUpdates);
		row("stale writes rejected", unlocked, locked, (race) -> race.product().staleWritesRejected());
		Map<String, Long> unlockedShares = unlocked.salesByNode(nodes);
		Map<String, Long> lockedShares = locked.salesByNode(nodes);
		for (String node : nodes) {
			row("sold by " + node, String.valueOf(unlockedShares.get(node)), String.valueOf(lockedShares.get(node)));
		}
		row("time taken", String.format("%.2f s", Demo.seconds(unlocked.took())),
				String.format("%.2f s", Demo.seconds(locked.took())));
		row("fencing tokens", tokens(unlocked), tokens(locked));
		row("  increasing in sale order", increasing(unlocked), increasing(locked));
		this.out.println();
		terms(locked);
	}

	// What the rows that are not plain counts mean.
	private void terms(RaceResult locked) {
		this.out.println("  failed requests: no answer, or another status, such as 503 when Redis failed.");
		this.out.println("  OVERSOLD: orders stored beyond the units in stock at start.");
		this.out.println("  lost stock updates: sales the stock counter does not show, orders stored minus");
		this.out.println("    (stock at start - final stock). Two purchases that read the same stock both");
		this.out.println("    write the same new stock, and one sale leaves no trace in the counter.");
		this.out.println("  stale writes rejected: stock writes refused because their fencing token was lower");
		this.out.println("    than one already accepted, as for a purchase whose lock expired before it wrote.");
		this.out.println("  fencing tokens: one per lock acquisition, increasing. They have 16 digits because");
		this.out.println("    each is the Redis clock in microseconds when the lock was granted (raised above");
		this.out.println("    the key's last token if that clock is behind it).");
		List<Long> tokens = locked.fencingTokens();
		if (!tokens.isEmpty()) {
			long first = tokens.get(0);
			this.out.println(
					"    The first above, " + first + ", is " + Instant.EPOCH.plus(first, ChronoUnit.MICROS) + ".");
		}
		this.out.println();
	}

	void longWorkStarting(String stocktakeNode, String purchaseNode, Duration work, Duration ttl) {
		this.out.printf(
				"Long work: POST /products/1/stocktake on %s works %d s under the product's lock, whose ttl is %d s;%n",
				stocktakeNode, work.toSeconds(), ttl.toSeconds());
		this.out.printf("%.1f s in (after the ttl), POST /products/1/purchase goes to %s ...%n",
				Demo.seconds(ttl.plusMillis(500)), purchaseNode);
	}

	void longWork(LongWorkResult result, String lockKey) {
		Stocktake stocktake = result.stocktake();
		this.out
			.println("  " + stocktake.node() + " logged, once a second (the lease is renewed every third of the ttl):");
		for (String line : result.log()) {
			this.out.println("    " + shorten(line));
		}
		if (!result.leaseLeftMillis().isEmpty()) {
			this.out.println("  the lease left in Redis (PTTL " + lockKey + "), read by the demo once a second: "
					+ String.join(", ", result.leaseLeftMillis().stream().map((pttl) -> pttl + " ms").toList()));
		}
		this.out.printf("  GET /actuator/locks on %s at %.1f s listed%s%n", stocktake.node(),
				Demo.seconds(result.purchaseSent()), result.heldLocks().isEmpty() ? " no lock" : ":");
		for (HeldLock lock : result.heldLocks()) {
			this.out.printf("    '%s': fencing token %d, held for %.2f s, lease left %s, renewed: %s%n", lock.key(),
					lock.fencingToken(), Demo.seconds(lock.heldFor()), (lock.leaseRemaining() != null)
							? String.format("%.2f s", Demo.seconds(lock.leaseRemaining())) : "none",
					lock.autoRenew() ? "yes" : "no");
		}
		this.out.printf("  stocktake: answered after %.2f s, lock held at every check: %s, fencing token %d%n",
				Demo.seconds(result.stocktakeAnswered()), stocktake.heldThroughout() ? "yes" : "NO",
				stocktake.fencingToken());
		this.out.printf(
				"  purchase on %s: sent at %.2f s, answered HTTP %d at %.2f s (it waited for the stocktake), fencing token %s%n",
				result.purchaseNode(), Demo.seconds(result.purchaseSent()), result.purchaseStatus(),
				Demo.seconds(result.purchaseAnswered()), result.purchaseToken());
		this.out.println(result.isSafe() ? "  => the lock outlived its ttl for as long as the work ran, and no longer"
				: "  => THE LOCK WAS NOT HELD FOR THE WHOLE STOCKTAKE");
		this.out.println();
	}

	void verdict(DemoResult result, DemoOptions options) {
		RaceResult unlocked = result.unlocked();
		RaceResult locked = result.locked();
		this.out.printf("Without the lock: %d units sold from a stock of %d (%d oversold), stock counter at %d.%n",
				unlocked.product().sold(), options.stock(), unlocked.oversold(), unlocked.product().stock());
		this.out.printf(
				"With @DistributedLocked: %d units sold from a stock of %d (%d oversold), stock counter at %d.%n",
				locked.product().sold(), options.stock(), locked.oversold(), locked.product().stock());
		this.out.println(result.isSafe() ? "PASS: the locked runs kept the data right."
				: "FAIL: the locked runs did not keep the data right.");
	}

	private void row(String label, RaceResult unlocked, RaceResult locked, Function<RaceResult, Number> value) {
		row(label, String.valueOf(value.apply(unlocked)), String.valueOf(value.apply(locked)));
	}

	private void row(String label, String unlocked, String locked) {
		this.out.printf(ROW, label, unlocked, locked);
	}

	private static String tokens(RaceResult race) {
		List<Long> tokens = race.fencingTokens();
		if (tokens.isEmpty()) {
			return "none (no lock)";
		}
		long min = tokens.stream().mapToLong(Long::longValue).min().orElseThrow();
		long max = tokens.stream().mapToLong(Long::longValue).max().orElseThrow();
		return min + " .. " + max;
	}

	private static String increasing(RaceResult race) {
		if (race.fencingTokens().isEmpty()) {
			return "-";
		}
		return race.fencingTokensIncrease() ? "yes, all " + race.orders().size() + " orders" : "NO";
	}

	private static String shorten(String logLine) {
		Matcher matcher = LOG_LINE.matcher(logLine);
		return matcher.matches() ? matcher.group(1) + "  " + matcher.group(2) : logLine;
	}

}
