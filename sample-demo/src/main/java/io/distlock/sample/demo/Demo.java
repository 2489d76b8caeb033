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

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.distlock.LockTemplate;
import io.distlock.sample.shop.NewProduct;
import io.distlock.sample.shop.Order;
import io.distlock.sample.shop.Product;
import io.distlock.sample.shop.Purchase;
import io.distlock.sample.shop.Stocktake;
import io.distlock.test.RedisServer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;

/**
 * The demo: one Redis, several nodes of the shop (separate JVMs), and two races of many
 * concurrent buyers for one product's stock, first at the unlocked purchase endpoint and
 * then at the one guarded by {@code @DistributedLocked}; then a lock held past its ttl by
 * renewal. It prints a report and stops everything it started, also on Ctrl-C.
 */
public final class Demo implements AutoCloseable {

	private static final long PRODUCT = 1;

	// The product's lock in Redis: the shop's key, product:<id>, with distlock's default
	// key prefix. The shop never looks at it; the demo, like a test harness, reads its
	// PTTL to show renewal.
	private static final String LOCK_KEY = LockTemplate.DEFAULT_KEY_PREFIX + "product:" + PRODUCT;

	// The long work: a stocktake that outlasts the ttl of its lock, set on every node.
	private static final Duration STOCKTAKE_WORK = Duration.ofSeconds(5);

	private static final Duration STOCKTAKE_TTL = Duration.ofSeconds(2);

	private static final long WARM_UP_PRODUCT = 2;

	private static final int WARM_UP_PURCHASES = 10;

	private static final Duration NODE_START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

	private final DemoOptions options;

	private final NodeCommand command;

	private final PrintStream out;

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final JsonMapper json = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	private final List<Node> nodes = new ArrayList<>();

	private @Nullable RedisServer redis;

	private boolean closed;

	/**
	 * Create a demo.
	 * @param options what to do
	 * @param command how to start the nodes
	 * @param out where to print the report
	 */
	public Demo(DemoOptions options, NodeCommand command, PrintStream out) {
		this.options = options;
		this.command = command;
		this.out = out;
	}

	/**
	 * Run the demo as the command line asks, and exit with its exit code.
	 * @param args the command-line arguments, such as {@code --demo.nodes=3}
	 * @see #run(String[])
	 */
	public static void main(String[] args) {
		System.exit(run(args));
	}

	/**
	 * Run the demo as the command line asks, stopping everything it started when it ends
	 * or the JVM is asked to exit (Ctrl-C).
	 * @param args the command-line arguments
	 * @return the exit code: 0 if the locked run kept the data right, 1 if it did not, 2
	 * if the demo could not run
	 */
	public static int run(String[] args) {
		Demo demo;
		try {
			demo = new Demo(DemoOptions.parse(args), NodeCommand.current(), System.out);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			return 2;
		}
		Thread shutdownHook = new Thread(() -> {
			if (!demo.isClosed()) {
				System.out.println("Interrupted: stopping the nodes and Redis");
				demo.close();
			}
		}, "distlock-demo-shutdown");
		Runtime.getRuntime().addShutdownHook(shutdownHook);
		try {
			return demo.run().isSafe() ? 0 : 1;
		}
		catch (Exception ex) {
			if (!demo.isClosed()) {
				System.err.println("The demo failed: " + ex);
			}
			return 2;
		}
		finally {
			demo.close();
			try {
				Runtime.getRuntime().removeShutdownHook(shutdownHook);
			}
			catch (IllegalStateException ex) {
				// Already shutting down: the hook has run.
			}
		}
	}

	/**
	 * Run the demo and print its report. Call {@link #close()} afterwards.
	 * @return the outcome
	 * @throws InterruptedException if interrupted while waiting for the nodes
	 */
	public DemoResult run() throws InterruptedException {
		DemoReport report = new DemoReport(this.out);
		report.title(this.options);
		List<String> redisArguments = startRedis(report);
		startNodes(redisArguments, report);
		warmUp();
		report.raceStarting(this.options, "purchase-unlocked", "no lock");
		RaceResult unlocked = race("purchase-unlocked");
		report.raceDone(unlocked);
		report.raceStarting(this.options, "purchase", "@DistributedLocked");
		RaceResult locked = race("purchase");
		report.raceDone(locked);
		List<String> names = this.nodes.stream().map(Node::name).toList();
		report.races(names, unlocked, locked);
		LongWorkResult longWork = null;
		if (this.options.longWork()) {
			longWork = longWork(report);
			report.longWork(longWork, LOCK_KEY);
		}
		DemoResult result = new DemoResult(names, unlocked, locked, longWork);
		report.verdict(result, this.options);
		return result;
	}

	private List<String> startRedis(DemoReport report) {
		if (this.options.hasExternalRedis()) {
			report.line("Using the Redis given by --spring.data.redis.* (no embedded redis-server)");
			return this.options.redisArguments();
		}
		RedisServer server = RedisServer.start();
		synchronized (this) {
			this.redis = server;
			if (this.closed) {
				server.close();
				throw new IllegalStateException("Stopped");
			}
		}
		report.line("Started an embedded " + server + " (pid " + server.pid() + ")");
		List<String> arguments = new ArrayList<>(List.of("--spring.data.redis.host=" + server.host(),
				"--spring.data.redis.port=" + server.port(), "--demo.shutdown-redis-with-parent=true"));
		arguments.addAll(this.options.redisArguments());
		return arguments;
	}

	private void startNodes(List<String> redisArguments, DemoReport report) throws InterruptedException {
		List<String> arguments = new ArrayList<>(redisArguments);
		arguments.add("--sample.stocktake-duration=" + DurationStyle.SIMPLE.print(STOCKTAKE_WORK));
		arguments.add("--sample.stocktake-ttl=" + DurationStyle.SIMPLE.print(STOCKTAKE_TTL));
		Path logDirectory;
		try {
			logDirectory = Files.createTempDirectory("distlock-demo-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a directory for the node logs", ex);
		}
		long start = System.nanoTime();
		for (int i = 1; i <= this.options.nodes(); i++) {
			Node node = Node.start(this.command, "node-" + i, arguments, logDirectory);
			synchronized (this) {
				this.nodes.add(node);
				if (this.closed) {
					node.close();
					throw new IllegalStateException("Stopped");
				}
			}
		}
		report.line("Starting " + this.options.nodes() + " nodes (separate JVMs; logs in " + logDirectory + "):");
		for (Node node : this.nodes) {
			node.awaitReady(this.http, NODE_START_TIMEOUT);
			report.line("  " + node);
		}
		report.line(String.format("All nodes up after %.1f s.", seconds(Duration.ofNanos(System.nanoTime() - start))));
	}

	// The first requests of a JVM are slow; run some on every node before timing races.
	private void warmUp() {
		put(WARM_UP_PRODUCT, new NewProduct("Warm-up", 1_000_000));
		List<CompletableFuture<?>> warmUps = new ArrayList<>();
		for (Node node : this.nodes) {
			warmUps.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < WARM_UP_PURCHASES; i++) {
					post(node, "/products/" + WARM_UP_PRODUCT + "/purchase-unlocked");
					post(node, "/products/" + WARM_UP_PRODUCT + "/purchase");
				}
			}));
		}
		CompletableFuture.allOf(warmUps.toArray(CompletableFuture[]::new)).join();
	}

	private RaceResult race(String endpoint) {
		put(PRODUCT, new NewProduct("Espresso machine", this.options.stock()));
		List<CompletableFuture<Sale>> sales = new ArrayList<>();
		long start = System.nanoTime();
		for (int buyer = 0; buyer < this.options.buyers(); buyer++) {
			Node node = this.nodes.get(buyer % this.nodes.size());
			HttpRequest request = HttpRequest.newBuilder(node.uri("/products/" + PRODUCT + "/" + endpoint))
				.timeout(REQUEST_TIMEOUT)
				.POST(BodyPublishers.noBody())
				.build();
			sales.add(this.http.sendAsync(request, BodyHandlers.ofString())
				.handle((response, failure) -> sale(node, response, failure)));
		}
		List<Sale> results = sales.stream().map(CompletableFuture::join).toList();
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		Node first = this.nodes.get(0);
		Product product = get(first, "/products/" + PRODUCT, new TypeReference<>() {
		});
		List<Order> orders = get(first, "/products/" + PRODUCT + "/orders", new TypeReference<>() {
		});
		return new RaceResult(endpoint, this.options.buyers(), results, product, orders, took);
	}

	private Sale sale(Node node, @Nullable HttpResponse<String> response, @Nullable Throwable failure) {
		if (response == null) {
			return new Sale(node.name(), 0, null, null, String.valueOf(failure));
		}
		Long token = null;
		String problemType = null;
		if (response.statusCode() == 200) {
			token = this.json.readValue(response.body(), Purchase.class).fencingToken();
		}
		else if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
			problemType = this.json.readValue(response.body(), Problem.class).type();
		}
		return new Sale(node.name(), response.statusCode(), problemType, token, null);
	}

	private LongWorkResult longWork(DemoReport report) throws InterruptedException {
		put(PRODUCT, new NewProduct("Espresso machine", this.options.stock()));
		Node stocktakeNode = this.nodes.get(0);
		Node purchaseNode = this.nodes.get(Math.min(1, this.nodes.size() - 1));
		report.longWorkStarting(stocktakeNode.name(), purchaseNode.name(), STOCKTAKE_WORK, STOCKTAKE_TTL);
		AtomicLong stocktakeAnsweredAt = new AtomicLong();
		long start = System.nanoTime();
		CompletableFuture<HttpResponse<String>> stocktake = this.http
			.sendAsync(postRequest(stocktakeNode, "/products/" + PRODUCT + "/stocktake"), BodyHandlers.ofString())
			.whenComplete((response, failure) -> stocktakeAnsweredAt.set(System.nanoTime()));
		CompletableFuture<List<Long>> leaseLeft = CompletableFuture
			.supplyAsync(() -> sampleLeaseLeft(stocktake, start));
		// Past the ttl: without renewal, the lock would have expired by now.
		Thread.sleep(STOCKTAKE_TTL.plusMillis(500).toMillis());
		// What the stocktake's node says it holds, through its locks endpoint.
		HeldLocks heldLocks = get(stocktakeNode, "/actuator/locks", new TypeReference<>() {
		});
		Duration purchaseSent = Duration.ofNanos(System.nanoTime() - start);
		HttpResponse<String> purchase = post(purchaseNode, "/products/" + PRODUCT + "/purchase");
		Duration purchaseAnswered = Duration.ofNanos(System.nanoTime() - start);
		HttpResponse<String> stocktakeResponse = stocktake.join();
		Duration stocktakeAnswered = Duration.ofNanos(stocktakeAnsweredAt.get() - start);
		if (stocktakeResponse.statusCode() != 200) {
			throw new IllegalStateException("The stocktake failed with HTTP " + stocktakeResponse.statusCode() + ": "
					+ stocktakeResponse.body());
		}
		Stocktake result = this.json.readValue(stocktakeResponse.body(), Stocktake.class);
		Long purchaseToken = (purchase.statusCode() == 200)
				? this.json.readValue(purchase.body(), Purchase.class).fencingToken() : null;
		return new LongWorkResult(result, stocktakeAnswered, purchaseNode.name(), purchaseSent, purchaseAnswered,
				purchase.statusCode(), purchaseToken, stocktakeNode.logLines("Stocktake of product " + PRODUCT),
				leaseLeft.join(), heldLocks.locks());
	}

	// The lock's remaining lease once a second while the stocktake runs, when the demo
	// runs the Redis itself; none with an external Redis.
	private List<Long> sampleLeaseLeft(CompletableFuture<?> stocktake, long start) {
		RedisServer server = this.redis;
		List<Long> leaseLeft = new ArrayList<>();
		if (server == null) {
			return leaseLeft;
		}
		for (long second = 1; !stocktake.isDone(); second++) {
			long sleepMillis = TimeUnit.NANOSECONDS
				.toMillis(start + TimeUnit.SECONDS.toNanos(second) - System.nanoTime());
			try {
				Thread.sleep(Math.max(0, sleepMillis));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			if (server.command("PTTL", LOCK_KEY) instanceof Long pttl && pttl > 0) {
				leaseLeft.add(pttl);
			}
		}
		return leaseLeft;
	}

	private void put(long productId, NewProduct product) {
		HttpRequest request = HttpRequest.newBuilder(this.nodes.get(0).uri("/products/" + productId))
			.timeout(REQUEST_TIMEOUT)
			.header("Content-Type", "application/json")
			.PUT(BodyPublishers.ofString(this.json.writeValueAsString(product)))
			.build();
		check(send(request), request);
	}

	private <T> T get(Node node, String path, TypeReference<T> type) {
		HttpRequest request = HttpRequest.newBuilder(node.uri(path)).timeout(REQUEST_TIMEOUT).build();
		return this.json.readValue(check(send(request), request).body(), type);
	}

	private HttpResponse<String> post(Node node, String path) {
		return send(postRequest(node, path));
	}

	private HttpRequest postRequest(Node node, String path) {
		return HttpRequest.newBuilder(node.uri(path)).timeout(REQUEST_TIMEOUT).POST(BodyPublishers.noBody()).build();
	}

	private HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during " + request.method() + " " + request.uri(), ex);
		}
	}

	private static HttpResponse<String> check(HttpResponse<String> response, HttpRequest request) {
		if (response.statusCode() != 200) {
			throw new IllegalStateException(request.method() + " " + request.uri() + " answered HTTP "
					+ response.statusCode() + ": " + response.body());
		}
		return response;
	}

	// What the demo reads of a problem detail (RFC 9457).
	record Problem(@Nullable String type) {
	}

	// What the demo reads of GET /actuator/locks.
	record HeldLocks(List<HeldLock> locks) {
	}

	static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

	/**
	 * Return whether {@link #close()} was called.
	 * @return whether the demo is closed
	 */
	public synchronized boolean isClosed() {
		return this.closed;
	}

	/**
	 * Stop every node (all at once, then waiting for each) and the embedded Redis.
	 * Idempotent.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.nodes.forEach(Node::stop);
		this.nodes.forEach(Node::close);
		if (this.redis != null) {
			this.redis.close();
		}
		String stopped = String.join(", ", this.nodes.stream().map(Node::name).toList());
		this.out.println("Stopped " + (stopped.isEmpty() ? "nothing" : stopped)
				+ ((this.redis != null) ? " and the embedded redis-server." : "."));
	}

}
