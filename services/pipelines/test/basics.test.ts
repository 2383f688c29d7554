import { describeServiceBasics } from '@anvil/testing';
import { pipelinesService } from '../src';

describeServiceBasics(pipelinesService);
