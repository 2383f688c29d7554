import { describeServiceBasics } from '@anvil/testing';
import { alertingService } from '../src';

describeServiceBasics(alertingService);
