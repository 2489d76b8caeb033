package com.example.orders;

import java.time.Duration;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.assertion.LockAssert;
import io.distlock.test.autoconfigure.AutoConfigureRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest
@AutoConfigureRedisServer // a real redis-server on a free port, no Docker
class OrderServiceTests {

	@Autowired
	OrderService orders;

	@Autowired
	LockTemplate lockTemplate;

	@Test
	void payRunsUnderTheOrdersLock() {
		LockAssert.assertThatLock("order:42").isHeldDuring(() -> this.orders.pay(42));
	}

	@Test
	void aSecondPaymentOfTheSameOrderIsRefusedAtOnce() {
		// Another instance is paying order 43: it holds the lock.
		try (LockHandle first = this.lockTemplate.tryAcquire("order:43", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> this.orders.pay(43));
		}
		this.orders.pay(43); // released: the next payment runs
	}

}
