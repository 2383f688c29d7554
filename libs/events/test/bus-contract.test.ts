import { AmqpBus, InMemoryBus, silentLogger } from '../src';
import { busContract } from './support/bus-contract';
import { amqpUrl } from './support/helpers';

describe('EventBus contract', () => {
  describe('InMemoryBus', () => {
    busContract(() => new InMemoryBus());
  });

  describe('AmqpBus (RabbitMQ)', () => {
    busContract(() => new AmqpBus(amqpUrl(), { logger: silentLogger }));
  });
});
