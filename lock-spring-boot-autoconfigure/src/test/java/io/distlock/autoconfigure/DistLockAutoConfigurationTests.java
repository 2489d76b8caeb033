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

package io.distlock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.InvalidLockOperationException;
import io.distlock.interceptor.LockAdvisor;
import io.distlock.interceptor.LockInterceptor;
import io.distlock.interceptor.LockOperationSource;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistLockAutoConfiguration}. No Redis is needed: connection factories
 * connect lazily, and nothing here takes a lock.
 */
@ExtendWith(OutputCaptureExtension.class)
class DistLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class));

	@Test
	void aspectjModeRegistersNoProxyAdvisorAndConfiguresTheWovenAspect() {
		this.contextRunner.withPropertyValues("distlock.aop.mode=aspectj").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockAdvisor.class)
				.doesNotHaveBean(LockInterceptor.class)
				.hasSingleBean(io.distlock.aspectj.LockAspectConfigurer.class);
			assertThat(context.getBean(io.distlock.aspectj.LockAspectConfigurer.class).getAspect())
				.isSameAs(io.distlock.aspectj.DistributedLockedAspect.aspectOf());
		});
	}

	@Test
	void aspectjModeFailsTheStartupForABeanWhoseLockedMethodsWereNotWoven() {
		this.contextRunner.withPropertyValues("distlock.aop.mode=aspectj")
			.withUserConfiguration(LockedServiceConfiguration.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidLockOperationException.class)
				.hasMessageContaining("DistributedLockedAspect was not woven into " + LockedService.class.getName())
				.hasMessageContaining("(not into work)"));
	}

	@Test
	void aspectjModeWithoutTheAspectOnTheClassPathFailsNamingTheDependency() {
		this.contextRunner.withPropertyValues("distlock.aop.mode=aspectj")
			.withClassLoader(new FilteredClassLoader("io.distlock.aspectj"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidDistLockPropertyException.class)
				.hasMessageContaining("io.distlock:lock-aspectj"));
	}

	@Test
	void anAopModeThatIsNeitherProxyNorAspectjFailsTheStartup() {
		this.contextRunner.withPropertyValues("distlock.aop.mode=weave")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("distlock.aop.mode"));
	}

	@Test
	void autoConfigurationProvidesTheLockBeansOnTheRedisConnectionFactory() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockTemplate.class);
			assertThat(context).getBean(LockClient.class).isInstanceOf(RedisLockClient.class);
			assertThat(context).hasSingleBean(LockWaiter.class);
			assertThat(context).hasSingleBean(LeaseRenewer.class);
			assertThat(context).hasSingleBean(LockAdvisor.class);
			assertThat(context).hasSingleBean(LockInterceptor.class);
			assertThat(context).hasSingleBean(LockOperationSource.class);
			assertThat(context).hasSingleBean(DistLockProperties.class);
		});
	}

	@Test
	void autoConfigurationBacksOffWhenSpringDataRedisIsAbsent() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockTemplate.class)
				.doesNotHaveBean(LockAdvisor.class)
				.doesNotHaveBean(DistLockProperties.class));
	}

	@Test
	void autoConfigurationBacksOffWhenLockCoreIsAbsent() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockTemplate.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockClient.class)
				.doesNotHaveBean(LockAdvisor.class)
				.doesNotHaveBean(DistLockProperties.class));
	}

	@Test
	void redlockNodesWithoutLettuceFailTheStartupSayingWhatIsMissing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.lettuce"))
			.withPropertyValues("distlock.redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("io.lettuce:lettuce-core")
				.hasMessageContaining("distlock.redlock.nodes"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badRedlockNodes")
	void redlockNodeUrlThatIsNotValidFailsTheStartupWithoutShowingItsCredentials(String shape, String nodes,
			List<String> secrets, CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.redlock.nodes=" + nodes).run((context) -> {
			assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("is not a valid Redis URL");
			for (Throwable failure = context.getStartupFailure(); failure != null; failure = failure.getCause()) {
				assertThat(failure.getMessage()).doesNotContain(secrets);
				for (Throwable suppressed : failure.getSuppressed()) {
					assertThat(suppressed.getMessage()).doesNotContain(secrets);
				}
			}
		});
		assertThat(output.toString()).doesNotContain(secrets);
	}

	static Stream<Arguments> badRedlockNodes() {
		String others = ",redis://127.0.0.1:2,redis://127.0.0.1:3";
		List<String> secrets = List.of("alice-user", "s3cr3t-pw");
		return Stream.of(Arguments.of("no scheme", ":s3cr3t-pw@127.0.0.1:6379" + others, secrets),
				Arguments.of("one slash", "redis:/alice-user:s3cr3t-pw@127.0.0.1" + others, secrets),
				Arguments.of("port not a number", "redis://alice-user:s3cr3t-pw@127.0.0.1:notaport" + others, secrets),
				// The comma in the password splits the property value in two.
				Arguments.of("password with a comma", "redis://alice-user:s3cr3t,comma-part@127.0.0.1:1" + others,
						List.of("alice-user", "s3cr3t", "comma-part")),
				Arguments.of("password with a comma, first half a valid URL",
						"redis://alice-user:6123,comma-part@127.0.0.1:1" + others,
						List.of("alice-user", "6123", "comma-part")));
	}

	@Test
	void autoConfigurationBacksOffWhenDisabled() {
		this.contextRunner.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockTemplate.class)
				.doesNotHaveBean(LockClient.class)
				.doesNotHaveBean(LockAdvisor.class));
	}

	@Test
	void withoutAConnectionFactoryThereIsNoLockClientNorTemplate() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockClient.class)
				.doesNotHaveBean(LockTemplate.class));
	}

	@Test
	void userDefinedLockClientIsUsed() {
		this.contextRunner.withUserConfiguration(CustomClientConfiguration.class).run((context) -> {
			assertThat(context).getBean(LockClient.class).isSameAs(context.getBean("customLockClient"));
			assertThat(context).hasSingleBean(LockTemplate.class);
		});
	}

	@Test
	void userDefinedLockTemplateIsUsed() {
		this.contextRunner.withUserConfiguration(CustomTemplateConfiguration.class)
			.run((context) -> assertThat(context).getBean(LockTemplate.class)
				.isSameAs(context.getBean("customLockTemplate")));
	}

	@Test
	void userDefinedOperationSourceIsUsed() {
		this.contextRunner.withUserConfiguration(CustomSourceConfiguration.class)
			.run((context) -> assertThat(context).getBean(LockOperationSource.class)
				.isSameAs(context.getBean("customSource")));
	}

	@Test
	void instanceNameIsTheApplicationNameTheHostAndTheProcessIdByDefault() {
		this.contextRunner.withPropertyValues("spring.application.name=orders")
			.run((context) -> assertThat(context.getBean(LockSettings.class).getInstanceName())
				.isEqualTo("orders@" + LockSettings.defaultInstanceName())
				.endsWith(":" + ProcessHandle.current().pid()));
	}

	@Test
	void instanceNameIsTheHostAndTheProcessIdWithoutAnApplicationName() {
		this.contextRunner.run((context) -> assertThat(context.getBean(LockSettings.class).getInstanceName())
			.isEqualTo(LockSettings.defaultInstanceName()));
	}

	@Test
	void instanceNameIsTheConfiguredOne() {
		this.contextRunner.withPropertyValues("distlock.instance-name=orders-eu-1")
			.run((context) -> assertThat(context.getBean(LockSettings.class).getInstanceName())
				.isEqualTo("orders-eu-1"));
	}

	@Test
	void instanceNameTooLongFailsTheStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.instance-name=" + "x".repeat(101))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(InvalidDistLockPropertyException.class.getName()
						+ ": distlock.instance-name is not a valid instance name: "
						+ "'instanceName' must be at most 100 characters but was 101"));
	}

	@Test
	void propertiesAreBound() {
		this.contextRunner
			.withPropertyValues("distlock.key-prefix=app:", "distlock.default-ttl=5s", "distlock.default-wait-time=2s",
					"distlock.order=42", "distlock.max-hold=10m")
			.run((context) -> {
				DistLockProperties properties = context.getBean(DistLockProperties.class);
				assertThat(properties.getKeyPrefix()).isEqualTo("app:");
				assertThat(properties.getDefaultTtl()).isEqualTo(Duration.ofSeconds(5));
				assertThat(properties.getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(2));
				assertThat(properties.getMaxHold()).isEqualTo(Duration.ofMinutes(10));
				assertThat(context.getBean(LockAdvisor.class).getOrder()).isEqualTo(42);
			});
	}

	@Test
	void defaultsAreTheDocumentedOnes() {
		this.contextRunner.run((context) -> {
			DistLockProperties properties = context.getBean(DistLockProperties.class);
			assertThat(properties.isEnabled()).isTrue();
			assertThat(properties.getKeyPrefix()).isEqualTo("lock:");
			assertThat(properties.getDefaultTtl()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getDefaultWaitTime()).isZero();
			assertThat(properties.getMaxHold()).isEqualTo(Duration.ofHours(1));
			// Documented: just outside @Transactional, whose advice has the lowest
			// precedence.
			assertThat(context.getBean(LockAdvisor.class).getOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE - 100);
		});
	}

	@Test
	void defaultTtlOfZeroFailsTheStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.default-ttl=0s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Default ttl must be at least 1ms but was PT0S"));
	}

	@Test
	void defaultTtlAboveTheLongestLeaseFailsTheStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.default-ttl=400d")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Default ttl must be at most 365 days"));
	}

	@Test
	void defaultTtlBelowTheRenewalMinimumFailsTheStartupSayingHowItWasRead() {
		this.contextRunner.withPropertyValues("distlock.default-ttl=10")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("distlock.default-ttl is read as 10ms (a number without a unit is "
						+ "milliseconds); write 10s")
				.hasMessageContaining("at least 500ms"));
	}

	@Test
	void defaultTtlOfTheRenewalMinimumIsAccepted() {
		this.contextRunner.withPropertyValues("distlock.default-ttl=500ms")
			.run((context) -> assertThat(context.getBean(DistLockProperties.class).getDefaultTtl())
				.isEqualTo(Duration.ofMillis(500)));
	}

	@Test
	void leaderTtlBelowTheRenewalMinimumFailsTheStartupNamingTheProperty() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DistLockLeaderAutoConfiguration.class))
			.withPropertyValues("distlock.leader.name=reports", "distlock.leader.ttl=10")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining(
						"distlock.leader.ttl is read as 10ms (a number without a unit is " + "milliseconds); write 10s")
				.hasMessageContaining("at least 500ms"));
	}

	@Test
	void replicationDefaultsWaitForNoReplicaAndAHundredMilliseconds() {
		this.contextRunner.run((context) -> {
			DistLockProperties.Replication replication = context.getBean(DistLockProperties.class).getReplication();
			assertThat(replication.getMinReplicas()).isZero();
			assertThat(replication.getTimeout()).isEqualTo(Duration.ofMillis(100));
		});
	}

	@Test
	void replicationPropertiesAreBound() {
		this.contextRunner
			.withPropertyValues("distlock.replication.min-replicas=2", "distlock.replication.timeout=250ms")
			.run((context) -> {
				DistLockProperties.Replication replication = context.getBean(DistLockProperties.class).getReplication();
				assertThat(replication.getMinReplicas()).isEqualTo(2);
				assertThat(replication.getTimeout()).isEqualTo(Duration.ofMillis(250));
			});
	}

	@Test
	void negativeMinReplicasFailsTheStartupNamingTheValue() {
		this.contextRunner.withPropertyValues("distlock.replication.min-replicas=-1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Minimum replicas must not be negative but was -1"));
	}

	@Test
	void replicationTimeoutOfZeroFailsTheStartupNamingTheValue() {
		this.contextRunner.withPropertyValues("distlock.replication.timeout=0ms")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Replication timeout must be at least 1ms but was PT0S"));
	}

	@Test
	void replicationTimeoutNotShorterThanTheCommandTimeoutFailsTheStartupSayingWhy() {
		this.contextRunner
			.withPropertyValues("distlock.replication.min-replicas=1", "distlock.replication.timeout=2s",
					"spring.data.redis.timeout=2s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distlock.replication.timeout (2000ms) must be shorter than the Redis command "
						+ "timeout, spring.data.redis.timeout (2000ms)"));
	}

	@Test
	void replicationTimeoutShorterThanTheCommandTimeoutStarts() {
		this.contextRunner
			.withPropertyValues("distlock.replication.min-replicas=1", "distlock.replication.timeout=100ms",
					"spring.data.redis.timeout=2s")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LockClient.class));
	}

	@Test
	void minReplicasWithRedlockFailsTheStartupSayingWhy() {
		this.contextRunner
			.withPropertyValues("distlock.redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3",
					"distlock.replication.min-replicas=1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distlock.replication.min-replicas is 1, but distlock.redlock.nodes is set"));
	}

	@Test
	void redlockSslBundleThatIsNotConfiguredFailsTheStartupNamingIt() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withPropertyValues("distlock.redlock.nodes=rediss://127.0.0.1:1,rediss://127.0.0.1:2,rediss://127.0.0.1:3",
					"distlock.redlock.ssl-bundle=missing")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining(
						"distlock.redlock.ssl-bundle names SSL bundle 'missing', which is not configured"));
	}

	@Test
	void redlockSslBundleWithAPlainNodeFailsTheStartupNamingTheNode() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withPropertyValues(
					"distlock.redlock.nodes=rediss://127.0.0.1:1,redis://:secret@127.0.0.1:2,rediss://127.0.0.1:3",
					"distlock.redlock.ssl-bundle=nodes",
					"spring.ssl.bundle.pem.nodes.truststore.certificate=classpath:io/distlock/test/tls/ca.crt")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distlock.redlock.nodes[1]")
				.hasMessageContaining("not a rediss:// URL")
				.hasMessageNotContaining("secret"));
	}

	@Test
	void negativeDefaultWaitTimeFailsTheStartup() {
		this.contextRunner.withPropertyValues("distlock.default-wait-time=-1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Default wait time must not be negative"));
	}

	@Test
	void annotatedBeansAreProxied() {
		this.contextRunner.withUserConfiguration(LockedServiceConfiguration.class)
			.run((context) -> assertThat(AopUtils.isAopProxy(context.getBean(LockedService.class))).isTrue());
	}

	@Test
	void badAnnotationFailsTheStartupNamingClassMethodAndAttribute() {
		this.contextRunner.withUserConfiguration(BadServiceConfiguration.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Invalid @DistributedLocked on")
				.hasMessageContaining(BadService.class.getName() + ".work()")
				.hasMessageContaining("ttl 'abc' is not a valid duration"));
	}

	@Test
	void disabledLocksLeaveAnnotatedBeansUnproxied() {
		this.contextRunner.withPropertyValues("distlock.enabled=false")
			.withUserConfiguration(LockedServiceConfiguration.class)
			.run((context) -> assertThat(AopUtils.isAopProxy(context.getBean(LockedService.class))).isFalse());
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomClientConfiguration {

		@Bean
		LockClient customLockClient() {
			return new LockClient() {

				@Override
				public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
					return new AcquireResult.Acquired(1);
				}

				@Override
				public boolean release(String key, String ownerToken) {
					return true;
				}

				@Override
				public boolean renew(String key, String ownerToken, Duration ttl) {
					return true;
				}

				@Override
				public boolean isHeld(String key, String ownerToken) {
					return true;
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomTemplateConfiguration {

		@Bean
		LockTemplate customLockTemplate(LockClient lockClient) {
			return new LockTemplate(lockClient);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomSourceConfiguration {

		@Bean
		LockOperationSource customSource() {
			return (method, targetClass) -> null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LockedServiceConfiguration {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	static class LockedService {

		@DistributedLocked(key = "#id")
		public void work(long id) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadServiceConfiguration {

		@Bean
		BadService badService() {
			return new BadService();
		}

	}

	static class BadService {

		@DistributedLocked(key = "k", ttl = "abc")
		public void work() {
		}

	}

}
