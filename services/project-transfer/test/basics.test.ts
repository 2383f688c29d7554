import { describeServiceBasics } from '@anvil/testing';
import { projectTransferService } from '../src';

describeServiceBasics(projectTransferService);
