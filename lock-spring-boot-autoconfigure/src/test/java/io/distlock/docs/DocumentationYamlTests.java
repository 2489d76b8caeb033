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

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.distlock.autoconfigure.DistLockProperties;
import io.distlock.autoconfigure.actuate.LocksEndpointProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.ssl.SslProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The YAML examples of the documentation (in
 * {@code src/test/resources/io/distlock/docs/}, copied into the pages) bind to the
 * properties they mean, with the values the pages say.
 */
class DocumentationYamlTests {

	@Test
	void redlockExampleBindsThreeNodesAndTheDefaults() {
		DistLockProperties.Redlock redlock = distlock("redlock.yml").getRedlock();

		assertThat(redlock.getNodes()).containsExactly("redis://127.0.0.1:7001", "redis://127.0.0.1:7002",
				"redis://:secret@127.0.0.1:7003");
		DistLockProperties.Redlock defaults = new DistLockProperties().getRedlock();
		assertThat(redlock.getClockDriftFactor()).isEqualTo(defaults.getClockDriftFactor()).isEqualTo(0.01);
		assertThat(redlock.getNodeTimeout()).isEqualTo(defaults.getNodeTimeout()).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void redlockNodesExampleBindsThreeNodes() {
		assertThat(distlock("redlock-nodes.yml").getRedlock().getNodes()).hasSize(3);
	}

	@Test
	void replicationExampleAsksOneReplicaWithinTheDefaultTimeout() {
		DistLockProperties.Replication replication = distlock("replication.yml").getReplication();

		assertThat(replication.getMinReplicas()).isEqualTo(1);
		assertThat(new DistLockProperties().getReplication().getMinReplicas()).isZero();
		assertThat(replication.getTimeout()).isEqualTo(new DistLockProperties().getReplication().getTimeout())
			.isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void springIntegrationExampleSetsTheDefaults() {
		DistLockProperties properties = distlock("spring-integration.yml");
		DistLockProperties defaults = new DistLockProperties();

		assertThat(properties.getDefaultTtl()).isEqualTo(defaults.getDefaultTtl()).isEqualTo(Duration.ofSeconds(30));
		assertThat(properties.getMaxHold()).isEqualTo(defaults.getMaxHold()).isEqualTo(Duration.ofHours(1));
	}

	@Test
	void clusterExampleRefreshesTheTopologyPeriodically() {
		DataRedisProperties redis = redis("cluster.yml");

		assertThat(redis.getCluster().getNodes()).hasSize(3);
		assertThat(redis.getLettuce().getCluster().getRefresh().getPeriod()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void sentinelExampleNamesTheMasterAndThreeSentinels() {
		DataRedisProperties redis = redis("sentinel.yml");

		assertThat(redis.getSentinel().getMaster()).isEqualTo("mymaster");
		assertThat(redis.getSentinel().getNodes()).hasSize(3);
	}

	@Test
	void tlsExampleNamesABundleWithTrustAndKeyMaterial() {
		Binder binder = binder("tls.yml");

		assertThat(binder.bindOrCreate("spring.data.redis", DataRedisProperties.class).getSsl().getBundle())
			.isEqualTo("redis");
		SslProperties ssl = binder.bindOrCreate("spring.ssl", SslProperties.class);
		assertThat(ssl.getBundle().getPem()).containsKey("redis");
		assertThat(ssl.getBundle().getPem().get("redis").getTruststore().getCertificate())
			.isEqualTo("classpath:ca.crt");
		assertThat(ssl.getBundle().getPem().get("redis").getKeystore().getPrivateKey())
			.isEqualTo("classpath:client.key");
	}

	@Test
	void jedisExampleChoosesJedisWithAPool() {
		DataRedisProperties redis = redis("jedis.yml");

		assertThat(redis.getClientType()).isEqualTo(DataRedisProperties.ClientType.JEDIS);
		assertThat(redis.getJedis().getPool().getMaxActive()).isEqualTo(17);
	}

	@Test
	void actuatorExampleOpensTheLocksEndpointAndShowsKeysToOperators() {
		Binder binder = binder("actuator.yml");

		assertThat(binder.bind("management.endpoint.locks.access", Access.class).get()).isEqualTo(Access.UNRESTRICTED);
		LocksEndpointProperties locks = binder.bindOrCreate("management.endpoint.locks", LocksEndpointProperties.class);
		assertThat(locks.getShowValues()).isEqualTo(Show.WHEN_AUTHORIZED);
		assertThat(locks.getRoles()).containsExactly("OPS");
		assertThat(binder.bind("management.endpoints.web.exposure.include", Bindable.listOf(String.class)).get())
			.containsExactly("health", "prometheus", "locks");
	}

	@Test
	void virtualThreadsExampleTurnsThemOn() {
		assertThat(binder("virtual-threads.yml").bind("spring.threads.virtual.enabled", Boolean.class).get()).isTrue();
	}

	private static DistLockProperties distlock(String example) {
		return binder(example).bindOrCreate("distlock", DistLockProperties.class);
	}

	private static DataRedisProperties redis(String example) {
		return binder(example).bindOrCreate("spring.data.redis", DataRedisProperties.class);
	}

	private static Binder binder(String example) {
		try {
			List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(example,
					new ClassPathResource("io/distlock/docs/" + example));
			assertThat(sources).as(example).isNotEmpty();
			return new Binder(ConfigurationPropertySources.from(sources));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
