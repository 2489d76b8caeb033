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

package io.distlock.docs;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Checks the Grafana dashboard and the Prometheus alert rules of {@code docs/operations/}
 * against a real application: after some locking, its {@code /actuator/prometheus} scrape
 * has every metric that a panel or a rule queries, with every label the query matches on
 * or groups by.
 */
class MonitoringDocsIntegrationTests {

	private static final Path OPERATIONS = Path.of("..", "docs", "operations");

	private static final Pattern METRIC = Pattern.compile("\\b(distlock_[a-z_]+)(\\{([^}]*)\\})?");

	private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!=|!~|=)");

	private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

	private static final Duration TTL = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void everyMetricAndLabelTheDashboardAndTheAlertsQueryIsScraped() throws Exception {
		List<String> queries = new ArrayList<>();
		queries.addAll(JsonPath.parse(Files.readString(OPERATIONS.resolve("grafana-dashboard.json")))
			.read("$.panels[*].targets[*].expr", List.class));
		queries.addAll(JsonPath.parse(Files.readString(OPERATIONS.resolve("grafana-dashboard.json")))
			.read("$.templating.list[*].query", List.class));
		queries.addAll(alertExpressions(Files.readString(OPERATIONS.resolve("prometheus-alerts.yml"))));
		assertThat(queries).hasSizeGreaterThanOrEqualTo(15);
		Map<String, Set<String>> scraped = scrapeAfterLocking();
		List<String> missing = new ArrayList<>();
		for (String query : queries) {
			Set<String> grouped = new HashSet<>();
			Matcher grouping = GROUPING.matcher(query);
			while (grouping.find()) {
				for (String label : grouping.group(1).split(",")) {
					grouped.add(label.trim());
				}
			}
			// The labels grouped by are not metrics, even when named distlock_...
			Matcher metric = METRIC.matcher(GROUPING.matcher(query).replaceAll(""));
			boolean any = false;
			while (metric.find()) {
				any = true;
				String name = metric.group(1);
				Set<String> labels = scraped.get(name);
				if (labels == null) {
					missing.add(name + " (in " + query + ")");
					continue;
				}
				Set<String> used = new HashSet<>(grouped);
				if (metric.group(3) != null) {
					Matcher matcher = MATCHER.matcher(metric.group(3));
					while (matcher.find()) {
						used.add(matcher.group(1));
					}
				}
				for (String label : used) {
					if (!labels.contains(label)) {
						missing.add(name + "{" + label + "} (in " + query + ")");
					}
				}
			}
			assertThat(any).as("a distlock metric in %s", query).isTrue();
		}
		assertThat(missing).as("queried but not scraped").isEmpty();
	}

	private static List<String> alertExpressions(String rules) {
		List<String> expressions = new ArrayList<>();
		for (String line : rules.split("\n")) {
			String trimmed = line.trim();
			if (trimmed.startsWith("expr:")) {
				expressions.add(trimmed.substring("expr:".length()).trim());
			}
		}
		return expressions;
	}

	private Map<String, Set<String>> scrapeAfterLocking() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MonitoredApplication.class)
			.properties("server.port=0", "spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(),
					"management.endpoints.web.exposure.include=prometheus",
					"management.metrics.tags.application=orders")
			.run()) {
			lock(context.getBean(LockTemplate.class));
			HttpResponse<String> scrape = this.http
				.send(HttpRequest
					.newBuilder(URI.create("http://localhost:"
							+ context.getEnvironment().getProperty("local.server.port") + "/actuator/prometheus"))
					.timeout(Duration.ofSeconds(10))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(scrape.statusCode()).isEqualTo(200);
			return labelsByMetric(scrape.body());
		}
	}

	// An acquisition and a release, a busy one, a waiter, a lock found lost.
	private static void lock(LockTemplate template) throws Exception {
		LockRequest orders = LockRequest.of("order:1", TTL, Duration.ofSeconds(20)).withName("orders");
		LockHandle held = template.tryAcquire(orders).orElseThrow();
		assertThat(template.tryAcquire(LockRequest.of("order:1", TTL, Duration.ZERO).withName("orders"))).isEmpty();
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> template.execute(orders, () -> true));
		await().atMost(Duration.ofSeconds(10)).until(() -> !template.getEngine().getWaitingLocks().isEmpty());
		held.close();
		assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
		LockHandle lost = template
			.tryAcquire(LockRequest.of("report:1", Duration.ofMillis(900), Duration.ZERO).withName("reports"))
			.orElseThrow();
		redis.endpoint().command("DEL", "lock:report:1");
		await().atMost(Duration.ofSeconds(10)).until(() -> lost.whenLost().toCompletableFuture().isDone());
		lost.close();
	}

	private static Map<String, Set<String>> labelsByMetric(String scrape) {
		Map<String, Set<String>> labels = new HashMap<>();
		Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+\\S+.*$");
		Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
		for (String line : scrape.split("\n")) {
			Matcher matcher = sample.matcher(line);
			if (line.startsWith("#") || !matcher.matches()) {
				continue;
			}
			Set<String> names = labels.computeIfAbsent(matcher.group(1), (name) -> new HashSet<>());
			if (matcher.group(3) != null) {
				Matcher labelMatcher = label.matcher(matcher.group(3));
				while (labelMatcher.find()) {
					names.add(labelMatcher.group(1));
				}
			}
		}
		return labels;
	}

	// Spring Security is on the test class path (OperationsSnippetIntegrationTests): this
	// application is left unsecured, as one without it.
	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
	static class MonitoredApplication {

	}

}
